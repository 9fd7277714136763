import { describe, expect, it } from 'vitest';
import { createRng, pick, seedFrom } from './rng';

describe('rng', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const seqA = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(seqA);
    expect([c(), c(), c()]).not.toEqual(seqA);
    for (const value of seqA) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('derives stable seeds from parts', () => {
    expect(seedFrom(7, 'round', 3)).toBe(seedFrom(7, 'round', 3));
    expect(seedFrom(7, 'round', 3)).not.toBe(seedFrom(7, 'round', 4));
  });

  it('picks every item of a list eventually', () => {
    const rng = createRng(1);
    const seen = new Set(Array.from({ length: 100 }, () => pick(rng, ['a', 'b', 'c'])));
    expect(seen).toEqual(new Set(['a', 'b', 'c']));
  });
});
