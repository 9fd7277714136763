import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { round } from '../lib/stats';
import { closeChild } from '../lib/children';

/**
 * Our PostgreSQL event store beside Emmett's (@event-driven-io/emmett-postgresql, a development dependency of
 * the benchmark only), each on a fresh database of the same server and in a process of its own
 * (bench/servers/event-store.ts), with the same workload: 8 writers appending batches of 1 and of 10 events to
 * streams of their own with the expected version checked, reading one stream of 1,000 events, and reading the
 * whole log in pages of 1,000. Each figure is the median of three repetitions, ours and Emmett's alternating;
 * the headline is ours ÷ Emmett's (higher is better for us).
 */

const here = path.dirname(fileURLToPath(import.meta.url));

interface StoreProcess {
  measure(measure: string, seconds: number): Promise<number>;
  close(): Promise<void>;
}

async function startStore(store: 'ours' | 'emmett', databaseUrl: string): Promise<StoreProcess> {
  const child: ChildProcess = fork(path.resolve(here, '../servers/event-store.ts'), [], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [])],
    env: { ...process.env, STORE: store, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (value: number) => void; reject: (error: Error) => void }>();
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`The ${store} event store process exited (code ${code}) before it was ready`)));
  });
  child.on('message', (message: { id: number; value?: number; error?: string }) => {
    const answer = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) answer?.reject(new Error(`${store}: ${message.error}`));
    else answer?.resolve(message.value!);
  });
  return {
    measure: (measure, seconds) =>
      new Promise<number>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        child.send({ id, measure, seconds });
      }),
    close: () => closeChild(child),
  };
}

const MEASURES = ['append_events_per_s_batch1', 'append_events_per_s_batch10', 'stream_reads_per_s_1000_events', 'log_read_events_per_s'];
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface EmmettResult {
  readonly emmett: Record<string, { ours: number; emmett: number; ratio: number; ours_runs: number[]; emmett_runs: number[] }>;
  readonly emmett_min_ratio: number;
}

export async function measureAgainstEmmett(options: { ourUrl: string; emmettUrl: string; seconds: number }): Promise<EmmettResult> {
  const started = await Promise.allSettled([startStore('ours', options.ourUrl), startStore('emmett', options.emmettUrl)]);
  const stores = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  try {
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    const byName = { ours: stores[0]!, emmett: stores[1]! };
    const result: EmmettResult['emmett'] = {};
    for (const key of MEASURES) {
      const runs = { ours: [] as number[], emmett: [] as number[] };
      for (let repetition = 0; repetition < 3; repetition++) {
        // Alternating, so a change of the machine's load falls on both.
        const order = repetition % 2 === 0 ? (['ours', 'emmett'] as const) : (['emmett', 'ours'] as const);
        for (const name of order) runs[name].push(await byName[name].measure(key, options.seconds));
      }
      const [o, e] = [median(runs.ours), median(runs.emmett)];
      result[key] = {
        ours: round(o, 0),
        emmett: round(e, 0),
        ratio: round(o / e, 3),
        ours_runs: runs.ours.map((v) => round(v, 0)),
        emmett_runs: runs.emmett.map((v) => round(v, 0)),
      };
    }
    return { emmett: result, emmett_min_ratio: Math.min(...Object.values(result).map((r) => r.ratio)) };
  } finally {
    await Promise.all(stores.map((store) => store.close()));
  }
}
