import { describe, expect, it } from 'vitest';
import { START, type Position } from '@pf/events';
import type { Logger } from '../logger';
import { backoffDelay } from '@pf/events';
import type { Lease } from './leadership';
import { Supervisor, type FollowerRun, type SupervisorClock } from './supervisor';

const policy = { baseMs: 100, maxMs: 3000 };

describe('backoffDelay', () => {
  it('doubles per attempt and never exceeds the cap, however many attempts failed', () => {
    const top = () => 0.999999;
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, policy, top))).toEqual([100, 200, 400, 800, 1600, 3000]);
    for (const attempt of [6, 10, 50, 1000, Number.MAX_SAFE_INTEGER]) expect(backoffDelay(attempt, policy, top)).toBe(3000);
  });

  it('draws the wait from the upper half of the ceiling (jitter that never collapses to zero)', () => {
    for (const attempt of [0, 3, 9]) {
      const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
      expect(backoffDelay(attempt, policy, () => 0)).toBe(ceiling / 2);
      for (let i = 0; i < 200; i++) {
        const wait = backoffDelay(attempt, policy, Math.random);
        expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
        expect(wait).toBeLessThanOrEqual(ceiling);
      }
    }
  });
});

/** A logger that keeps what was logged at error and info level. */
function recordingLogger() {
  const lines: { level: 'error' | 'info' | 'warn'; message: string }[] = [];
  const logger = {
    child: () => logger,
    error: (_: unknown, message: string) => lines.push({ level: 'error', message }),
    warn: (_: unknown, message: string) => lines.push({ level: 'warn', message }),
    info: (first: unknown, message?: string) => lines.push({ level: 'info', message: message ?? String(first) }),
    debug: () => undefined,
  };
  return { lines, logger: logger as unknown as Logger };
}

/** A clock whose sleeps end at once and are recorded; random numbers come from a fixed sequence. */
function fakeClock(randoms: number[] = [0.5]) {
  const waits: number[] = [];
  let now = 0;
  let next = 0;
  const clock: SupervisorClock = {
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
    random: () => randoms[next++ % randoms.length]!,
  };
  return { clock, waits };
}

/** A follower whose runs fail at start `failures` times, then run until told to fail. */
function flakyFollower(failuresBeforeSuccess: number) {
  let starts = 0;
  let failRunning: (error: Error) => void = () => undefined;
  return {
    get starts() {
      return starts;
    },
    failNow: (error: Error) => failRunning(error),
    spec: {
      name: 'projector',
      position: (): Position => START,
      async start(): Promise<FollowerRun> {
        starts++;
        if (starts <= failuresBeforeSuccess) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        const done = new Promise<void>((_, reject) => (failRunning = reject));
        return { caughtUp: Promise.resolve(), done, close: async () => undefined };
      },
    },
  };
}

const settle = async (condition: () => boolean) => {
  for (let i = 0; i < 10_000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
};

describe('Supervisor', () => {
  it('restarts a failing follower for as long as it fails, with capped backoff, and logs the failure once', async () => {
    const { lines, logger } = recordingLogger();
    const { clock, waits } = fakeClock([0, 0.5, 0.999]);
    const follower = flakyFollower(60);
    const supervisor = new Supervisor({ log: logger, clock, backoff: policy });
    const supervised = supervisor.run(follower.spec);
    await supervised.caughtUp;

    expect(follower.starts).toBe(61);
    expect(waits).toHaveLength(60);
    expect(waits.slice(0, 6)).toEqual([50, 150, 400, 400, 1200, 2999]);
    expect(Math.max(...waits)).toBeLessThanOrEqual(policy.maxMs);
    expect(waits.slice(10).every((wait) => wait >= policy.maxMs / 2)).toBe(true);
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(1);
    expect(lines.filter((line) => line.message.includes('recovered'))).toHaveLength(1);
    expect(supervised.status()).toMatchObject({ state: 'running', restarts: 60, lastError: 'connect ECONNREFUSED', failingSince: null });
    await supervised.stop();
    expect(supervised.status().state).toBe('stopped');
  });

  it('logs again for a new failure after a recovery, and starts that backoff afresh', async () => {
    const { lines, logger } = recordingLogger();
    const { clock, waits } = fakeClock([0]);
    const follower = flakyFollower(3);
    const supervised = new Supervisor({ log: logger, clock, backoff: policy }).run(follower.spec);
    await supervised.caughtUp;
    expect(waits).toEqual([50, 100, 200]);

    follower.failNow(new Error('terminating connection due to administrator command'));
    await settle(() => follower.starts === 5);
    expect(waits).toEqual([50, 100, 200, 50]);
    expect(lines.map((line) => `${line.level}: ${line.message}`)).toEqual([
      'error: projector failed; restarting it with backoff until it recovers',
      'info: projector recovered',
      'error: projector failed; restarting it with backoff until it recovers',
      'info: projector recovered',
    ]);
    await supervised.stop();
  });

  it('reports failing, with the last error, while the follower cannot run', async () => {
    const { logger } = recordingLogger();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const clock: SupervisorClock = { now: () => 0, random: () => 0, sleep: () => gate };
    const follower = flakyFollower(1);
    const supervised = new Supervisor({ log: logger, clock, backoff: policy }).run(follower.spec);
    await settle(() => supervised.status().state === 'failing');
    expect(supervised.status()).toMatchObject({ state: 'failing', lastError: 'connect ECONNREFUSED', restarts: 1 });
    release();
    await supervised.caughtUp;
    expect(supervised.status().state).toBe('running');
    await supervised.stop();
  });

  it('stands by while another copy leads, takes over, and gives the lead up when its lock connection is lost', async () => {
    const { logger } = recordingLogger();
    const { clock } = fakeClock([0]);
    let lose: (error: Error) => void = () => undefined;
    const leases: Lease[] = [];
    let attempts = 0;
    const lead = async (): Promise<Lease | null> => {
      attempts++;
      if (attempts <= 2) return null;
      const lease: Lease = { lost: new Promise<never>((_, reject) => (lose = reject)), release: async () => undefined };
      lease.lost.catch(() => undefined);
      leases.push(lease);
      return lease;
    };
    const follower = flakyFollower(0);
    const supervised = new Supervisor({ log: logger, clock, backoff: policy, lead }).run({ ...follower.spec, leadership: 'automation' });
    await supervised.caughtUp;
    expect(supervised.status().state).toBe('standby');
    await settle(() => supervised.status().state === 'running');
    expect(follower.starts).toBe(1);

    lose(new Error('lost the leadership of automation'));
    await settle(() => follower.starts === 2);
    expect(leases).toHaveLength(2);
    expect(supervised.status()).toMatchObject({ restarts: 1, lastError: 'lost the leadership of automation' });
    await supervised.stop();
  });
});
