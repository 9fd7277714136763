import { afterEach, describe, expect, it } from 'vitest';
import { commitmentRule } from '@pf/command-service';
import { createTestDatabase } from '@pf/infra/testing';
import { runSimulation } from './run';

/**
 * The simulation catches a broken rule: with the commitment check removed from the deciders (the one switch
 * that exists for this test), a borrower's need ends up committed twice, and the run reports that step. It runs
 * on past the first violation: a second commitment also leaves conversations idle (their borrower is committed
 * elsewhere and nothing ends them), which the idle check may report first, depending on the steps before it.
 */
describe('the simulation with the commitment check removed', () => {
  afterEach(() => {
    commitmentRule.enforced = true;
  });

  it('reports a second commitment of a need, with the seed and the step', async () => {
    commitmentRule.enforced = false;
    const database = await createTestDatabase('pf_simulation_broken');
    try {
      const report = await runSimulation({ seed: 1001, steps: 500, databaseUrl: database.url, foldEvery: 500, stopAtFirst: false });
      const caught = report.violations.find((violation) => violation.invariant === 'one commitment per need');
      expect(caught, JSON.stringify(report.violations)).toBeDefined();
      console.log(
        `[simulation, commitment check removed] caught at seed ${caught!.seed} step ${caught!.step} (${caught!.action}): ${caught!.detail}`,
      );
      expect(caught).toMatchObject({ seed: 1001, step: expect.any(Number) as unknown });
      expect(caught!.detail).toMatch(/while already committed|without the borrower .* need committed/);
    } finally {
      await database.drop();
    }
  }, 300_000);
});
