import type { Position } from '@pf/events';
import type { Logger } from '../logger';
import { backoffDelay, type BackoffPolicy } from '@pf/events';
import { FOLLOWER_BACKOFF } from './backoff';
import { tryLead, type Lease } from './leadership';
import { inFollowerScope } from '../observability/follower-scope';

/**
 * starting: first run, not caught up yet. running: caught up and following. standby: another copy leads.
 * failing: the last run failed and it has not caught up since. stopped: closed.
 */
export type FollowerState = 'starting' | 'running' | 'standby' | 'failing' | 'stopped';

/** One run of a follower, from its checkpoint until it fails or is closed. */
export interface FollowerRun {
  /** Resolves when this run has caught up with the events stored when it started. */
  readonly caughtUp: Promise<void>;
  /** Rejects with the error that stopped the run; resolving means it stopped by itself (also restarted). */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

export interface FollowerSpec {
  /** Unique within the process: names it in logs and in /readyz. */
  readonly name: string;
  /** Starts a run from the follower's checkpoint (a restart resumes where the last run's work was saved). */
  start(): Promise<FollowerRun>;
  /** The position of the last event it has handled, for its lag; null where it follows no position (Kafka). */
  position(): Position | null;
  /** Run by one copy at a time: the advisory lock of this key is held for the run. */
  readonly leadership?: string;
}

export interface FollowerStatus {
  readonly name: string;
  readonly state: FollowerState;
  readonly position: Position | null;
  readonly lastError: string | null;
  /** When the current failure began (ms since the epoch), while failing. */
  readonly failingSince: number | null;
  readonly restarts: number;
}

export interface SupervisorClock {
  now(): number;
  /** Waits ms; resolves early when `abort` resolves. */
  sleep(ms: number, abort: Promise<void>): Promise<void>;
  readonly random: () => number;
}

export const systemClock: SupervisorClock = {
  now: () => Date.now(),
  sleep: (ms, abort) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      void abort.then(() => {
        clearTimeout(timer);
        resolve();
      });
    }),
  random: () => Math.random(),
};

export interface SupervisorOptions {
  readonly log: Logger;
  /** For leadership locks; without it, no follower may ask for leadership. */
  readonly databaseUrl?: string;
  readonly backoff?: BackoffPolicy;
  readonly clock?: SupervisorClock;
  /** How often a copy on standby tries to take the lead. */
  readonly standbyRetryMs?: number;
  /** Takes leadership; the default holds a PostgreSQL advisory lock (tests pass their own). */
  readonly lead?: (key: string) => Promise<Lease | null>;
}

export interface Supervised {
  /** Resolves the first time the follower has caught up (or is on standby, or was stopped). */
  readonly caughtUp: Promise<void>;
  readonly status: () => FollowerStatus;
  stop(): Promise<void>;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs every follower of the event stream in a process (projector, gateway, automation, analytics, Kafka relay):
 * restarts a failed one forever, with capped and jittered exponential backoff, each run starting again from its
 * checkpoint. A failure is logged once when the follower goes from healthy to failing, and once more when it
 * has recovered, not at every attempt in between.
 */
export class Supervisor {
  private readonly entries = new Map<string, Supervised>();
  private readonly clock: SupervisorClock;
  private readonly backoff: BackoffPolicy;

  constructor(private readonly options: SupervisorOptions) {
    this.clock = options.clock ?? systemClock;
    this.backoff = options.backoff ?? FOLLOWER_BACKOFF;
  }

  statuses(): FollowerStatus[] {
    return [...this.entries.values()].map((entry) => entry.status());
  }

  run(given: FollowerSpec): Supervised {
    // Two copies of one follower in a process (tests run two gateways in one) are told apart by a number.
    let name = given.name;
    for (let copy = 2; this.entries.has(name); copy++) name = `${given.name}#${copy}`;
    const spec: FollowerSpec = {
      ...given,
      name,
      start: () => inFollowerScope(name, () => given.start()),
      position: () => given.position(),
    };
    const log = this.options.log.child({ follower: spec.name });
    let state: FollowerState = 'starting';
    let lastError: string | null = null;
    let failingSince: number | null = null;
    let restarts = 0;
    let stopping = false;
    let signalStop: () => void = () => undefined;
    const stopRequested = new Promise<void>((resolve) => (signalStop = resolve));
    let markCaughtUp: () => void = () => undefined;
    const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));

    const failed = (error: unknown) => {
      lastError = describe(error);
      if (failingSince === null) {
        failingSince = this.clock.now();
        log.error({ err: error }, `${spec.name} failed; restarting it with backoff until it recovers`);
      } else {
        log.debug({ err: error }, `${spec.name} is still failing`);
      }
      state = 'failing';
    };
    const healthy = (next: 'running' | 'standby') => {
      if (failingSince !== null) {
        log.info(
          { downMs: this.clock.now() - failingSince, restarts },
          `${spec.name} recovered${next === 'standby' ? ' (on standby: another copy leads)' : ''}`,
        );
      }
      failingSince = null;
      state = next;
      markCaughtUp();
    };

    const once = async (): Promise<'standby' | 'ended'> => {
      let lease: Lease | null = null;
      let run: FollowerRun | null = null;
      try {
        if (spec.leadership) {
          lease = await this.lead(spec.leadership);
          if (!lease) return 'standby';
          if (state === 'standby') log.info(`${spec.name}: this copy leads now`);
        }
        if (stopping) return 'ended';
        run = await spec.start();
        const stopped = stopRequested.then(() => 'stop' as const);
        const ended = Promise.race([run.done.then(() => 'ended' as const), lease?.lost ?? new Promise<never>(() => undefined)]);
        const first = await Promise.race([run.caughtUp.then(() => 'caught-up' as const), ended, stopped]);
        if (first === 'caught-up' && !stopping) {
          healthy('running');
          await Promise.race([ended, stopped]);
        }
        if (stopping) return 'ended';
        throw new Error(`${spec.name} stopped by itself`);
      } finally {
        await run?.close().catch((error: unknown) => log.debug({ err: error }, 'closing a run failed'));
        await lease?.release();
      }
    };

    const loop = async () => {
      let attempt = 0;
      while (!stopping) {
        try {
          const outcome = await once();
          if (outcome === 'standby') {
            healthy('standby');
            attempt = 0;
            await this.clock.sleep(this.options.standbyRetryMs ?? 2000, stopRequested);
            continue;
          }
        } catch (error) {
          if (stopping) break;
          // A run that had caught up starts the backoff afresh: this is a new failure, not the old one going on.
          if (state === 'running') attempt = 0;
          failed(error);
          const wait = backoffDelay(attempt++, this.backoff, this.clock.random);
          restarts++;
          await this.clock.sleep(wait, stopRequested);
        }
      }
      state = 'stopped';
      markCaughtUp();
    };

    const finished = loop();
    const entry = {
      caughtUp,
      status: (): FollowerStatus => ({ name: spec.name, state, position: spec.position(), lastError, failingSince, restarts }),
      stop: async () => {
        stopping = true;
        signalStop();
        await finished;
        this.entries.delete(spec.name);
      },
    };
    this.entries.set(spec.name, entry);
    return entry;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.stop()));
  }

  private lead(key: string): Promise<Lease | null> {
    if (this.options.lead) return this.options.lead(key);
    if (!this.options.databaseUrl) throw new Error(`Leadership of ${key} needs the supervisor's databaseUrl`);
    return tryLead(this.options.databaseUrl, key);
  }
}
