import type pg from 'pg';
import { currentUserView, START, type Position } from '@pf/events';
import { createPool, PostgresEventStore, readingTheContract, type EventStore } from '@pf/infra';
import { startSingleNode, type RunningServer } from '../server';
import { testServerEnv } from '../testing/server-env';
import { followersSettled } from '../testing/settled';
import { ApiClient } from '../testing/api-client';
import { World, type OperatorOfferCheck, type Violation } from './invariants';
import { readModelsEqualFreshFold } from './read-models-check';
import { PushRecorder, pushesEqualReadModels } from './gateway-check';
import { seededRandom } from './random';
import { chooseAction, type Operator } from './actions';
import { MembershipWorld } from './membership-world';
import { MembershipSteps } from './membership-steps';
import { ControlCast } from './control-steps';
import { deletedDataGone } from './erasure-check';

export interface SimulationOptions {
  readonly seed: number;
  readonly steps: number;
  /** A fresh, empty database for this run. */
  readonly databaseUrl: string;
  /** How often (in steps) the costly invariants run: read models against a fresh fold, pushes against them. */
  readonly foldEvery?: number;
  /** Stop at the first violation (a test) or go on and count them (a long run from the command line). */
  readonly stopAtFirst?: boolean;
  readonly log?: (line: string) => void;
  /**
   * Called once after the last step, with the node still running and idle: the node's address and the people who
   * used it, signed in (the transcript check reads every conversation through them: docs/behaviour/transcripts.md).
   */
  readonly afterSteps?: (node: FinishedNode) => Promise<void>;
}

interface FinishedNode {
  readonly url: string;
  readonly people: readonly ApiClient[];
}

interface SimulationViolation extends Violation {
  seed: number;
  step: number;
  action: string;
}

export interface SimulationReport {
  seed: number;
  steps: number;
  actions: Record<string, number>;
  tally: World['tally'];
  violations: SimulationViolation[];
  ms: number;
}

/** The simulation's clock: real time plus the hours it has let pass (the response-time rule reads it). */
interface SimClock {
  offsetMs: number;
  now(): number;
}

const HOUR_MS = 3_600_000;

/**
 * One seeded run (docs/simulation.md): a single node with the real services on a real PostgreSQL, driven over its
 * HTTP API by several operators chosen step by step from the seed; after each step the node is let run until idle
 * (every follower at the head of the store, no move pending), and the invariants are checked.
 */
export async function runSimulation(options: SimulationOptions): Promise<SimulationReport> {
  const started = Date.now();
  const { seed, steps, foldEvery = 100, stopAtFirst = true, log = () => undefined } = options;
  const random = seededRandom(seed);
  const clock: SimClock = { offsetMs: 0, now: () => Date.now() + clock.offsetMs };
  const jitter = seededRandom(seed ^ 0x5eed);
  const server = await startSingleNode(
    testServerEnv(options.databaseUrl, {
      AUTOMATION: 'on',
      AGENT_REPLY_DELAY_MS: '0',
      AGENT_RESPONSE_HOUR_MS: String(HOUR_MS),
      RATE_LIMIT_PER_MINUTE: '100000000',
      LOG_LEVEL: 'fatal',
    }),
    { automation: { random: () => jitter.next(), now: () => clock.now() }, analytics: false },
  );
  const pool = createPool(options.databaseUrl, 2);
  const store = readingTheContract(new PostgresEventStore(pool, options.databaseUrl));
  const world = new World();
  const firms = new MembershipWorld();
  const violations: SimulationViolation[] = [];
  const actions: Record<string, number> = {};
  const operators: Operator[] = [];
  const recorders: PushRecorder[] = [];
  let position: Position = START;
  let cast: ControlCast | null = null;
  const timing = { action: 0, settle: 0, byAction: {} as Record<string, [number, number]> };
  try {
    await server.caughtUp;
    // Two firms of two people each (firms group the operators; each person owns their own agents).
    for (const [index, firm] of ['Firm A', 'Firm A', 'Firm B', 'Firm B'].entries()) {
      const client = await ApiClient.signIn(server.url);
      const me = await client.get('/api/auth/user');
      const operator: Operator = {
        name: `operator ${index + 1} (${firm})`,
        firm,
        userId: currentUserView.parse(me.body).id,
        client,
        agentIds: [],
        seeded: false,
      };
      operators.push(operator);
      recorders.push(await PushRecorder.open(server.url, client));
    }
    const membership = new MembershipSteps(server.url, firms, (socket) => recorders.push(socket));
    // A firm of colleagues and sessions asking each other for sides (control-steps.ts).
    cast = await ControlCast.open(server.url);
    const controlCast = cast;
    const checks: OperatorOfferCheck[] = [];
    for (let step = 1; step <= steps; step += 1) {
      const more = [...membership.candidates(random, world), ...controlCast.candidates(random, world)];
      const action = chooseAction(random, world, operators, more);
      actions[action.name] = (actions[action.name] ?? 0) + 1;
      const found: Violation[] = [];
      const t0 = performance.now();
      const outcome = await action.run({ server, clock, random, hourMs: HOUR_MS });
      timing.action += performance.now() - t0;
      if (outcome.serverError) found.push({ invariant: 'no server errors', detail: outcome.serverError });
      if (outcome.check) checks.push(outcome.check);
      if (outcome.violations) found.push(...outcome.violations);
      const t1 = performance.now();
      await settle(server, pool, false);
      timing.settle += performance.now() - t1;
      const perAction = (timing.byAction[action.name] ??= [0, 0]);
      perAction[0] += 1;
      perAction[1] += Math.round(performance.now() - t0);
      position = await fold(store, [world, firms], position);
      // The deal opener takes the log in batches every 100 ms: waited for only when a deal awaits opening.
      if (world.unopenedDeals() > 0) {
        await settle(server, pool, true);
        position = await fold(store, [world, firms], position);
      }
      found.push(...world.takeViolations(), ...firms.takeViolations(), ...controlCast.checkGiven(world));
      for (const check of checks.splice(0)) found.push(...world.checkOperatorOffer(check));
      const idle = world.idleConversations();
      found.push(...idle);
      const readers = operators.map((operator, index) => ({ name: operator.name, client: operator.client, recorder: recorders[index]! }));
      found.push(...(await deletedDataGone(membership.erasedNames(), readers)));
      if (step % foldEvery === 0 || step === steps) {
        found.push(...(await readModelsEqualFreshFold(pool, store)));
        for (const [index, operator] of operators.entries())
          found.push(...(await pushesEqualReadModels(operator.name, operator.client, recorders[index]!)));
      }
      for (const violation of found) {
        const at = { ...violation, seed, step, action: action.describe };
        violations.push(at);
        log(`VIOLATION seed ${seed} step ${step} (${action.describe}): ${violation.invariant}: ${violation.detail}`);
      }
      if (found.length > 0 && stopAtFirst) break;
    }
    if (process.env.SIM_DEBUG) log(`timing ${JSON.stringify(timing)}`);
    await options.afterSteps?.({
      url: server.url,
      people: [...operators.map((o) => o.client), ...controlCast.people.map((p) => p.client)],
    });
    return { seed, steps, actions, tally: world.tally, violations, ms: Date.now() - started };
  } finally {
    await Promise.all(recorders.map((recorder) => recorder.close()));
    await cast?.close();
    await store.close();
    await pool.end();
    await server.close();
  }
}

/** Lets the node run until nothing is left to do: every follower at the head of the store, no move pending, twice. */
/**
 * The analytics consumers are not waited for (no invariant reads their facts), nor the deal opener unless asked:
 * both take the log in batches at most every 100 ms, which would make every step a tenth of a second long.
 */
const BACKGROUND = /^(analytics|kafka-relay)/;

function settle(server: RunningServer, pool: pg.Pool, withDealOpener: boolean): Promise<void> {
  return followersSettled(server, pool, {
    timeoutMs: 20_000,
    waitsFor: (name) => !BACKGROUND.test(name) && (withDealOpener || name !== 'deal opener'),
    pollMs: { idle: 1, busy: 3 },
  });
}

async function fold(store: EventStore, worlds: readonly Pick<World, 'observe'>[], after: Position): Promise<Position> {
  let position = after;
  for (;;) {
    const batch = await store.readAll(position, 1000);
    if (batch.length === 0) return position;
    for (const event of batch) for (const world of worlds) world.observe(event);
    position = batch[batch.length - 1]!.position;
  }
}
