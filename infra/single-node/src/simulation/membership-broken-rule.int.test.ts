import { afterEach, describe, expect, it } from 'vitest';
import { membershipRule } from '@pf/command-service';
import { createTestDatabase } from '@pf/infra/testing';
import { runSimulation } from './run';

/**
 * The simulation catches a broken membership rule: with the per-person check removed from the membership decider
 * (the one switch that exists for this test), a person accepting two invitations at once is let into both firms,
 * and the run stops at that step (docs/simulation.md "Membership"). The first join of the run may be a setup's
 * (the control steps' firm), not the racing joins: with the rule off, any join leaves the person in two firms.
 */
describe('the simulation with the one-firm-per-person check removed', () => {
  afterEach(() => {
    membershipRule.enforced = true;
  });

  it('reports a person let into a second firm, with the seed and the step', async () => {
    membershipRule.enforced = false;
    const database = await createTestDatabase('pf_simulation_membership');
    try {
      const report = await runSimulation({ seed: 1001, steps: 500, databaseUrl: database.url, foldEvery: 500 });
      const caught = report.violations.find((v) => v.invariant === 'one firm per person' || v.invariant === 'one join per person');
      expect(caught, JSON.stringify(report.violations)).toBeDefined();
      console.log(
        `[simulation, membership check removed] caught at seed ${caught!.seed} step ${caught!.step} (${caught!.action}): ${caught!.detail}`,
      );
      expect(caught).toMatchObject({ seed: 1001, step: expect.any(Number) as unknown });
      expect(caught!.detail).toMatch(/joined firm \S+ while a member of \S+/);
    } finally {
      await database.drop();
    }
  }, 300_000);
});
