import { describe, expect, it } from 'vitest';
import { readCriteria, readMoney, readRate, readTermYears } from './read-criteria';

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

  it.each(['about a house', '£', '', '250,000-300,000', '-5'])('money %j is unreadable', (text) =>
    expect(readMoney(text)).toBeNull(),
  );

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
    ).toEqual({
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
      unreadable: [],
    });
    expect(readCriteria({ loanTermMin: '30', loanTermMax: '10' }).termYears).toEqual({ min: 10, max: 30 });
  });
});
