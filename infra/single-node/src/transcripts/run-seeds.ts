import { createPool } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { runSimulation } from '../simulation/run';
import { readNodeTranscripts, type NodeTranscripts } from './read-node';
import { checkTranscripts, type CheckReport } from './rules';

/** One seed's reading: the simulation run, then every conversation read and checked as people see it. */
export interface SeedReading {
  readonly seed: number;
  readonly check: CheckReport;
  /** Conversations that could not be read as people read them (docs/behaviour/transcripts.md, "Reading"). */
  readonly problems: string[];
  /** The simulation's own invariants broken on the way (its test owns them; counted here so a reader knows). */
  readonly simulationViolations: number;
  readonly ms: number;
}

/**
 * Runs the simulation (docs/simulation.md) for one seed on a fresh database of the server TEST_DATABASE_URL names,
 * and, with the node still running after the last step, reads every conversation through the people who used it.
 */
export async function readSeed(seed: number, steps: number): Promise<SeedReading> {
  const started = Date.now();
  const database = await createTestDatabase('pf_transcripts');
  try {
    const holder: { read?: NodeTranscripts } = {};
    const report = await runSimulation({
      seed,
      steps,
      databaseUrl: database.url,
      // The costly comparisons are the simulation test's; once at the end keeps a reading run short.
      foldEvery: steps,
      stopAtFirst: false,
      afterSteps: async (node) => {
        holder.read = await readNodeTranscripts(node.people, `seed ${seed}`);
      },
    });
    const { transcripts, problems, erased } = holder.read ?? {
      transcripts: [],
      problems: [{ conversationId: 0, detail: 'the simulation ended before its last step' }],
      erased: [],
    };
    const read = new Set([...transcripts.map((transcript) => transcript.conversationId), ...erased]);
    for (const id of await startedConversations(database.url)) {
      if (!read.has(id)) problems.push({ conversationId: id, detail: 'no person of the run could read it' });
    }
    return {
      seed,
      check: checkTranscripts(transcripts),
      problems: problems.map((problem) => `seed ${seed}, conversation ${problem.conversationId}: ${problem.detail}`),
      simulationViolations: report.violations.length,
      ms: Date.now() - started,
    };
  } finally {
    await database.drop();
  }
}

/** Every conversation the store holds: what the reading must have covered. */
async function startedConversations(databaseUrl: string): Promise<number[]> {
  const pool = createPool(databaseUrl, 1);
  try {
    const result = await pool.query<{ id: string }>(`select data->>'conversationId' as id from events where type = 'ConversationStarted'`);
    return result.rows.map((row) => Number(row.id));
  } finally {
    await pool.end();
  }
}
