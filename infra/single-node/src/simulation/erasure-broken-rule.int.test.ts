import { afterEach, describe, expect, it } from 'vitest';
import { erasureRule } from '@pf/query-service';
import { createTestDatabase } from '@pf/infra/testing';
import { runSimulation } from './run';

/**
 * The simulation catches a broken erasure: with the read models' erasure step switched off (the one switch that
 * exists for this test), a newcomer who deletes their account mid-negotiation leaves their agent's name in what
 * the operators read, and the run stops at that step (docs/simulation.md "Membership").
 */
describe("the simulation with the read models' erasure step switched off", () => {
  afterEach(() => {
    erasureRule.enforced = true;
  });

  it("reports a deleted person's agent still named in another firm's answers, with the seed and the step", async () => {
    erasureRule.enforced = false;
    const database = await createTestDatabase('pf_simulation_erasure');
    try {
      const report = await runSimulation({ seed: 1001, steps: 500, databaseUrl: database.url, foldEvery: 500 });
      const caught = report.violations.find((v) => v.invariant === "a deleted person's data is gone");
      expect(caught, JSON.stringify(report.violations)).toBeDefined();
      console.log(
        `[simulation, erasure switched off] caught at seed ${caught!.seed} step ${caught!.step} (${caught!.action}): ${caught!.detail}`,
      );
      expect(caught!.action).toMatch(/deletes their account mid-negotiation/);
      expect(caught!.detail).toMatch(/GET \/api\/\w+ \(200\) still holds "Newcomer \d+ borrower \d+"/);
    } finally {
      await database.drop();
    }
  }, 300_000);
});
