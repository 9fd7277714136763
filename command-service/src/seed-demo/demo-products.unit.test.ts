import { describe, expect, it } from 'vitest';
import { borrowerNeeds, productRange } from '@pf/events';
import { DEMO_NEEDS, DEMO_RANGES } from './demo-products';

describe('the demo ranges and needs', () => {
  it('are valid by the one contract', () => {
    for (const [key, range] of Object.entries(DEMO_RANGES)) expect(productRange.safeParse(range).error?.issues ?? [], key).toEqual([]);
    for (const [key, needs] of Object.entries(DEMO_NEEDS)) expect(borrowerNeeds.safeParse(needs).error?.issues ?? [], key).toEqual([]);
  });
});
