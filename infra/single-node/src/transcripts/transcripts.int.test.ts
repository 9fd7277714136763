import { describe, expect, it } from 'vitest';
import { readSeed } from './run-seeds';

/**
 * The reading itself (docs/behaviour/transcripts.md), on one seed of the simulation: every conversation the store holds
 * is read through the people who used the node, the thread and the history tell the same messages, and there are
 * offers to check, so the rules had something to read. Whether the rules hold is the command's answer
 * (`npm run transcripts`, in CI); the rules' own test is rules.unit.test.ts.
 */
describe('reading a simulated node’s conversations', () => {
  it('reads every conversation of seed 1001 as its people see it, with offers and words to check', async () => {
    const reading = await readSeed(1001, 120);
    expect(reading.problems).toEqual([]);
    expect(reading.check.conversations).toBeGreaterThan(0);
    expect(reading.check.withOffers).toBeGreaterThan(0);
    const checked = Object.fromEntries(reading.check.rules.map((rule) => [rule.name, rule.checked]));
    expect(checked['loan and term never traded']).toBeGreaterThan(0);
    expect(checked['words agree with moves']).toBeGreaterThan(0);
    expect(checked['refused terms never accepted']).toBeGreaterThan(0);
  }, 300_000);
});
