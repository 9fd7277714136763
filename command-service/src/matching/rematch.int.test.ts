import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START, streams, type Criteria, type DomainEvent, type EventMetadata } from '@pf/events';
import { createLogger, openServiceContext, parseConfig, type OpenedContext } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { commandMigrations } from '..';
import { AutomationState } from '../automation/process-managers/automation-state';
import { AUTOMATION_SNAPSHOT_FORMAT, snapshotOf } from '../automation/process-managers/automation-snapshot';
import { startAutomation } from '../automation/process-managers/automation';
import { loadSnapshot } from '../automation/process-managers/snapshots';

const metadata: EventMetadata = { actor: { kind: 'user', userId: 'owner' }, correlationId: 'c', causationId: null };
const criteria: Criteria = { propertyValueMin: '£300k', propertyValueMax: '£400k', interestRateMin: '4%', interestRateMax: '5%' };

const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The whole automation on real PostgreSQL, with `replyDelayMs` before each automated move. */
function automationDatabase(replyDelayMs: number) {
  let context: OpenedContext;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', AGENT_REPLY_DELAY_MS: String(replyDelayMs) });
    const opened = await openServiceContext(config, createLogger('silent'), database.url, commandMigrations);
    context = { ...opened, close: async () => (await opened.close(), await database.drop()) };
  });
  afterAll(async () => context?.close());

  const agentEvent = async (agentId: number, type: string, data: Record<string, unknown>) => {
    const stream = streams.agent(agentId);
    const version = (await context.store.readStream(stream)).length - 1;
    await context.store.append(
      stream,
      [{ id: randomUUID(), type, data: { agentId, ...data }, metadata }],
      version < 0 ? 'no_stream' : version,
    );
  };
  const count = async (type: string) =>
    Number((await context.pool.query<{ n: string }>('select count(*) as n from events where type = $1', [type])).rows[0]!.n);
  /** Presses Match for a lead and waits for the matcher's answer (which also means all before it was handled). */
  const pressMatch = async (agentId: number) => {
    const requestId = randomUUID();
    await context.store.append(
      streams.matchRun(requestId),
      [{ id: randomUUID(), type: 'MatchRequested', data: { requestId, agentId, ownerId: 'owner' }, metadata }],
      'no_stream',
    );
    let answer: { matchIds: string[]; note: string | null } | undefined;
    await until(async () => {
      const found = await context.pool.query<{ data: { matchIds: string[]; note: string | null } }>(
        "select data from events where type = 'MatchRunCompleted' and data->>'requestId' = $1",
        [requestId],
      );
      answer = found.rows[0]?.data;
      return answer !== undefined;
    }, 'the matcher to answer Match');
    return answer!;
  };
  return { context: () => context, agentEvent, count, pressMatch };
}

describe('matcher: a pair that has negotiated is not matched again with the same criteria', () => {
  const db = automationDatabase(0);
  const alreadyNote = 'No new match: Beatrice Cole has already negotiated with every lender that fits; change the criteria to look again';

  it('not on Match nor on an unrelated edit, also after a hand-over; again once the criteria change', async () => {
    const first = startAutomation(db.context());
    await db.agentEvent(1, 'AgentCreated', { ownerId: 'owner', name: 'Beatrice Cole', type: 'borrower', description: '', criteria });
    await db.agentEvent(2, 'AgentCreated', { ownerId: 'owner', name: 'Wessex Bank', type: 'lender', description: '', criteria });
    await db.agentEvent(3, 'AgentCreated', {
      ownerId: 'owner',
      name: 'Far Bank',
      type: 'lender',
      description: '',
      criteria: { interestRateMin: '9%', interestRateMax: '11%' },
    });
    await until(async () => (await db.count('ConversationCompleted')) === 1, 'the first negotiation to finish');

    // Match pressed again and again: nothing new, and the answer says why.
    for (let press = 0; press < 3; press += 1)
      expect(await db.pressMatch(1)).toEqual({ requestId: expect.any(String) as unknown, agentId: 1, matchIds: [], note: alreadyNote });
    // An edit that leaves the criteria as they were (the description) is no reason either; nor is a resume.
    await db.agentEvent(1, 'AgentUpdated', { name: 'Beatrice Cole', description: 'First-time buyer', criteria });
    await db.agentEvent(2, 'AgentUpdated', { name: 'Wessex Bank', description: 'Regional lender', criteria: { ...criteria } });
    expect((await db.pressMatch(2)).note).toBe(
      'No new match: Wessex Bank has already negotiated with every borrower that fits; change the criteria to look again',
    );
    expect(await db.count('ConversationStarted')).toBe(1);
    await first.close(); // a hand-over: the state is saved as it stands

    const saved = await loadSnapshot(db.context().pool, 'automation', AUTOMATION_SNAPSHOT_FORMAT);
    const state = saved!.state as ReturnType<typeof snapshotOf>;
    expect(state.negotiatedPairs.map(([pair]) => pair)).toEqual(['1:2']);
    const replayed = new AutomationState();
    for (const event of await db.context().store.readAll(START, 10_000)) replayed.observe(event);
    expect(JSON.parse(JSON.stringify(snapshotOf(replayed)))).toEqual(state);

    // The next leader knows the pair from the snapshot alone.
    const second = startAutomation(db.context());
    expect((await db.pressMatch(1)).note).toBe(alreadyNote);
    expect(await db.count('ConversationStarted')).toBe(1);
    // The lender changes its rates: a new negotiation is worth having.
    await db.agentEvent(2, 'AgentUpdated', {
      name: 'Wessex Bank',
      description: 'Regional lender',
      criteria: { ...criteria, interestRateMin: '4.2%' },
    });
    await until(async () => (await db.count('ConversationStarted')) === 2, 'the pair to be matched again');
    await second.close();
    const started = await db
      .context()
      .pool.query<{ data: Extract<DomainEvent, { type: 'ConversationStarted' }>['data'] }>(
        "select data from events where type = 'ConversationStarted' order by position",
      );
    expect(started.rows.map((row) => row.data.participants.map((p) => p.agentId).sort())).toEqual([
      [1, 2],
      [1, 2],
    ]);
  });
});

describe('matcher: a negotiation a pause stopped is taken up again on resume', () => {
  // Replies slow enough that the pause lands while the agents are still talking.
  const db = automationDatabase(60_000);

  it('matches the pair again after the resume, but not on a Match pressed while it talks', async () => {
    const automation = startAutomation(db.context());
    await db.agentEvent(1, 'AgentCreated', { ownerId: 'owner', name: 'Beatrice Cole', type: 'borrower', description: '', criteria });
    await db.agentEvent(2, 'AgentCreated', { ownerId: 'owner', name: 'Wessex Bank', type: 'lender', description: '', criteria });
    await until(async () => (await db.count('ConversationStarted')) === 1, 'the match');
    expect((await db.pressMatch(1)).note).toMatch(/^No new match at 70 or more/);
    await db.agentEvent(2, 'AgentPaused', {});
    await until(async () => (await db.count('ConversationCompleted')) === 1, 'the conversation to stop');
    const stopped = await db.context().pool.query<{ data: unknown }>("select data from events where type = 'ConversationCompleted'");
    expect(stopped.rows[0]!.data).toMatchObject({ outcome: 'stopped', reason: 'Wessex Bank was paused' });
    await db.agentEvent(2, 'AgentResumed', {});
    await until(async () => (await db.count('ConversationStarted')) === 2, 'the pair to be matched again on resume');
    // And the new conversation is remembered in turn: no third one on Match.
    expect((await db.pressMatch(1)).matchIds).toEqual([]);
    await automation.close();
    expect(await db.count('ConversationStarted')).toBe(2);
  });
});
