import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START, streams, type EventMetadata } from '@pf/events';
import { createLogger, openServiceContext, parseConfig, type OpenedContext } from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { commandMigrations } from '../../index';
import { AutomationState } from './automation-state';
import { AUTOMATION_SNAPSHOT_FORMAT, snapshotOf } from './automation-snapshot';
import { startAutomation } from './automation';
import { loadSnapshot } from './snapshots';

const metadata: EventMetadata = { actor: { kind: 'user', userId: 'owner' }, correlationId: 'c', causationId: null };
const criteria = { propertyValueMin: '£300k', propertyValueMax: '£400k', interestRateMin: '4%', interestRateMax: '5%' };

const until = async (check: () => Promise<boolean>, what: string, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The whole automation (matcher, negotiator, reactor) on real PostgreSQL, with agents that reply at once. */
describe('automation: completed conversations leave memory; the saved state is the state replayed from zero', () => {
  let context: OpenedContext;
  beforeAll(async () => {
    const database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', AGENT_REPLY_DELAY_MS: '0' });
    const opened = await openServiceContext(config, createLogger('silent'), database.url, commandMigrations);
    context = { ...opened, close: async () => (await opened.close(), await database.drop()) };
  });
  afterAll(async () => context?.close());

  const createAgent = (agentId: number, type: 'borrower' | 'lender', name: string) =>
    context.store.append(
      streams.agent(agentId),
      [{ id: randomUUID(), type: 'AgentCreated', data: { agentId, ownerId: 'owner', name, type, description: '', criteria }, metadata }],
      'no_stream',
    );
  const count = async (type: string) =>
    Number((await context.pool.query<{ n: string }>('select count(*) as n from events where type = $1', [type])).rows[0]!.n);

  it('negotiates to the end, keeps no finished conversation, and a new leader carries on from the snapshot', async () => {
    const first = startAutomation(context);
    await createAgent(1, 'borrower', 'Beatrice Cole');
    await createAgent(2, 'lender', 'Wessex Bank');
    await until(async () => (await count('ConversationCompleted')) === 1, 'the first negotiation to finish');
    await first.close(); // a hand-over: the state is saved as it stands

    const saved = await loadSnapshot(context.pool, 'automation', AUTOMATION_SNAPSHOT_FORMAT);
    const state = saved!.state as ReturnType<typeof snapshotOf>;
    expect(state.conversations).toEqual([]);
    expect(state.agents.map((agent) => agent.name).sort()).toEqual(['Beatrice Cole', 'Wessex Bank']);
    // The same as replaying every event from zero (the JSON form: what a new leader restores).
    const replayed = new AutomationState();
    for (const event of await context.store.readAll(START, 10_000)) replayed.observe(event);
    expect(JSON.parse(JSON.stringify(snapshotOf(replayed)))).toEqual(state);

    // The next leader restores that state and reacts to what comes after: a second borrower is matched (the
    // first one's need is committed to its agreement, so it is matched nowhere else).
    const second = startAutomation(context);
    await createAgent(3, 'borrower', 'Thomas Reed');
    await until(async () => (await count('ConversationCompleted')) === 2, 'the second negotiation to finish');
    await second.close();
    expect(await count('ConversationStarted')).toBe(2);
    const later = await loadSnapshot(context.pool, 'automation', AUTOMATION_SNAPSHOT_FORMAT);
    expect((later!.state as ReturnType<typeof snapshotOf>).conversations).toEqual([]);
  });
});
