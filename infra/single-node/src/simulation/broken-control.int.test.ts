import { afterEach, describe, expect, it } from 'vitest';
import { controlRequestRule } from '@pf/realtime-gateway';
import { createTestDatabase } from '@pf/infra/testing';
import { runSimulation } from './run';

/**
 * The simulation catches a request for control reaching the wrong session: with the gateway's rule switched off
 * (controlRequestRule, the one switch that exists for this test), a request reaches every session of the firm
 * following the conversation, and the run stops at that step (docs/decisions/per-side-control.md).
 */
describe('the simulation with requests for control reaching every session of the firm', () => {
  afterEach(() => {
    controlRequestRule.onlyTheHolder = true;
  });

  it('reports a request told to a session that does not hold the side, with the seed and the step', async () => {
    controlRequestRule.onlyTheHolder = false;
    const database = await createTestDatabase('pf_simulation_broken_control');
    try {
      const report = await runSimulation({ seed: 1001, steps: 200, databaseUrl: database.url, foldEvery: 200 });
      const caught = report.violations.find((violation) => violation.invariant === 'a request reaches only the session holding the side');
      expect(caught, JSON.stringify(report.violations)).toBeDefined();
      console.log(
        `[simulation, control requests to every session] caught at seed ${caught!.seed} step ${caught!.step} (${caught!.action}): ${caught!.detail}`,
      );
      expect(caught!.detail).toMatch(/was told of .* request for agent \d+, which they do not hold there/);
    } finally {
      await database.drop();
    }
  }, 300_000);
});
