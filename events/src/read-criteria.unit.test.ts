import { describe, expect, it } from 'vitest';
import {
  readCriteria,
  readDeposit,
  readMoney,
  readMoneyRange,
  readMonthlyRent,
  readPropertyTypes,
  readRate,
  readRegions,
  readShare,
  readTermYears,
  unreadableCriteria,
} from './read-criteria';

describe('reading criteria as people write them', () => {
  it.each([
    ['£250,000', 250_000],
    ['250000', 250_000],
    ['250k', 250_000],
    ['250K', 250_000],
    ['£1.2m', 1_200_000],
    ['£ 1.5 million', 1_500_000],
    ['2bn', 2_000_000_000],
    [' £300,000 ', 300_000],
  ])('money %s', (text, expected) => expect(readMoney(text)).toBe(expected));

  it.each(['about a house', '£', '', '250,000-300,000', '-5'])('money %j is unreadable', (text) => expect(readMoney(text)).toBeNull());

  it.each([
    ['4.5%', 4.5],
    ['4.5', 4.5],
    ['4.5 %', 4.5],
    ['3 per cent', 3],
    ['5.25% p.a.', 5.25],
  ])('rate %s', (text, expected) => expect(readRate(text)).toBe(expected));

  it.each(['low', '150%', '4.5.1'])('rate %j is unreadable', (text) => expect(readRate(text)).toBeNull());

  it.each([
    ['25 years', 25],
    ['25', 25],
    ['1 year', 1],
    ['30yrs', 30],
    ['300 months', 25],
  ])('term %s', (text, expected) => expect(readTermYears(text)).toBe(expected));

  it.each(['forever', '0', '250 years'])('term %j is unreadable', (text) => expect(readTermYears(text)).toBeNull());

  it('reads a whole criteria object, listing what it could not read as no limit', () => {
    expect(
      readCriteria({
        propertyValueMin: '£200k',
        propertyValueMax: 'flexible',
        interestRateMin: '3.5%',
        interestRateMax: '5',
        loanTermMax: '30 years',
      }),
    ).toMatchObject({
      propertyValue: { min: 200_000, max: null },
      interestRate: { min: 3.5, max: 5 },
      termYears: { min: null, max: 30 },
      unreadable: ['propertyValueMax'],
    });
  });

  it('treats null criteria as no limits and swaps a reversed range', () => {
    expect(readCriteria(null)).toEqual({
      propertyValue: { min: null, max: null },
      interestRate: { min: null, max: null },
      termYears: { min: null, max: null },
      loanAmount: { min: null, max: null },
      loanAmountIsRange: false,
      deposit: null,
      annualIncome: null,
      propertyTypes: null,
      expectedRentMonthly: null,
      regions: null,
      maxLtv: null,
      unreadable: [],
    });
    expect(readCriteria({ loanTermMin: '30', loanTermMax: '10' }).termYears).toEqual({ min: 10, max: 30 });
  });

  it.each([
    ['£236,000', { range: { min: 236_000, max: null }, isRange: false }],
    ['£200k to £240k', { range: { min: 200_000, max: 240_000 }, isRange: true }],
    ['240,000 - 200,000', { range: { min: 200_000, max: 240_000 }, isRange: true }],
    ['between £1m and £2.5m', { range: { min: 1_000_000, max: 2_500_000 }, isRange: true }],
    ['up to £500k', { range: { min: null, max: 500_000 }, isRange: true }],
    ['£50k+', { range: { min: 50_000, max: null }, isRange: true }],
  ])('loan amount %s', (text, expected) => expect(readMoneyRange(text)).toEqual(expected));

  it.each([
    ['£59,000', { pounds: 59_000 }],
    ['20%', { share: 0.2 }],
  ])('deposit %s', (text, expected) => expect(readDeposit(text)).toEqual(expected));

  it.each([
    ['80%', 0.8],
    ['75% LTV', 0.75],
    ['0.85', 0.85],
    ['60', 0.6],
  ])('maximum LTV %s', (text, expected) => expect(readShare(text)).toBeCloseTo(expected, 10));

  it.each([
    ['£1,800 a month', 1800],
    ['£1,800 pcm', 1800],
    ['£21,600 a year', 1800],
    ['21600', 1800],
    ['1800', 1800],
  ])('rent %s is pounds a month', (text, expected) => expect(readMonthlyRent(text)).toBe(expected));

  it('reads property types and regions as people write them, and "any" as no restriction', () => {
    expect(readPropertyTypes('Residential, BTL')).toEqual(['residential', 'buy-to-let']);
    expect(readPropertyTypes('buy to let')).toEqual(['buy-to-let']);
    expect(readPropertyTypes('any')).toBe('any');
    expect(readRegions('Leeds and Manchester')).toEqual(['leeds', 'manchester']);
    expect(readRegions('nationwide')).toBe('any');
  });

  it('lists every extra criterion it cannot read, for the card to show back as not understood', () => {
    const read = readCriteria({
      loanAmount: 'as much as possible',
      deposit: 'half',
      annualIncome: 'good',
      propertyType: 'castle',
      expectedRent: 'market rate',
      region: 'Glasgow',
      maxLtv: '150%',
    });
    expect(read.unreadable).toEqual(['loanAmount', 'deposit', 'annualIncome', 'propertyType', 'expectedRent', 'region', 'maxLtv']);
    expect(unreadableCriteria({ region: 'London', propertyType: 'buy-to-let', maxLtv: '75%' })).toEqual([]);
  });
});
