import { describe, expect, it } from 'vitest';
import { compactPounds, percentage, plural, pounds, poundsAndPence, wholeNumber } from './money';

describe('pounds (the full form)', () => {
  it('groups thousands and rounds to whole pounds', () => {
    expect(pounds(236_000)).toBe('£236,000');
    expect(pounds(999.5)).toBe('£1,000');
    expect(pounds(0)).toBe('£0');
    expect(pounds(1_250_000)).toBe('£1,250,000');
  });
  it('puts the minus before the pound sign', () => {
    expect(pounds(-1_500)).toBe('-£1,500');
    expect(pounds(-0.2)).toBe('£0');
  });
});

describe('poundsAndPence (a payment to the penny)', () => {
  it('keeps two decimals and groups thousands', () => {
    expect(poundsAndPence(625.78)).toBe('£625.78');
    expect(poundsAndPence(1234.5)).toBe('£1,234.50');
    expect(poundsAndPence(0.004)).toBe('£0.00');
    expect(poundsAndPence(-12.3)).toBe('-£12.30');
  });
});

describe('compactPounds (the compact form)', () => {
  it('writes small amounts in full', () => {
    expect(compactPounds(950)).toBe('£950');
    expect(compactPounds(999.4)).toBe('£999');
  });
  it('keeps one decimal under £10k and none from there to a million', () => {
    expect(compactPounds(1_000)).toBe('£1k');
    expect(compactPounds(9_450)).toBe('£9.5k');
    expect(compactPounds(9_960)).toBe('£10k');
    expect(compactPounds(868_400)).toBe('£868k');
  });
  it('moves to the next unit when a value rounds up to it', () => {
    expect(compactPounds(999_600)).toBe('£1m');
    expect(compactPounds(1_400_000)).toBe('£1.4m');
    expect(compactPounds(12_000_000)).toBe('£12m');
    expect(compactPounds(999_960_000)).toBe('£1bn');
    expect(compactPounds(2_400_000_000)).toBe('£2.4bn');
  });
  it('keeps the sign', () => {
    expect(compactPounds(-1_400_000)).toBe('-£1.4m');
  });
});

describe('numbers, rates and plurals', () => {
  it('groups whole numbers', () => {
    expect(wholeNumber(10_000)).toBe('10,000');
    expect(wholeNumber(-0.3)).toBe('0');
  });
  it('writes a rate with at most the given decimals', () => {
    expect(percentage(4.25)).toBe('4.25%');
    expect(percentage(4.1)).toBe('4.1%');
    expect(percentage(3.14159, 3)).toBe('3.142%');
  });
  it('uses the singular for exactly one', () => {
    expect(plural(1, 'minute')).toBe('1 minute');
    expect(plural(2, 'minute')).toBe('2 minutes');
    expect(plural(0, 'deal')).toBe('0 deals');
    expect(plural(1, 'match', 'matches')).toBe('1 match');
    expect(plural(1_200, 'deal')).toBe('1,200 deals');
  });
});
