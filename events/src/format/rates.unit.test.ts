import { describe, expect, it } from 'vitest';
import { ltvOf, ltvPercent, ratePercent, sharePercent } from './rates';

describe('rates and shares', () => {
  it('writes a rate to two decimals, always', () => {
    expect(ratePercent(4.9)).toBe('4.90%');
    expect(ratePercent(5)).toBe('5.00%');
    expect(ratePercent(4.125)).toBe('4.13%');
    expect(ratePercent(-0.001)).toBe('0.00%');
  });
  it('writes a loan to value to one decimal', () => {
    expect(ltvPercent(72.7272)).toBe('72.7%');
    expect(ltvPercent(80)).toBe('80.0%');
    expect(ltvOf(400_000, 550_000)).toBe('72.7%');
    expect(ltvOf(1, 0)).toBeNull();
  });
  it('writes a share to one decimal unless told', () => {
    expect(sharePercent(45.45)).toBe('45.5%');
    expect(sharePercent(-3)).toBe('-3.0%');
    expect(sharePercent(12.345, 2)).toBe('12.35%');
  });
});
