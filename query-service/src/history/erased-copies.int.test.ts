import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START, streams, type DomainEvent, type EventMetadata } from '@pf/events';
import {
  contentDigest,
  createLogger,
  linkHash,
  NotCaughtUp,
  openServiceContext,
  parseConfig,
  parseMessage,
  toMessage,
  type OpenedContext,
} from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { queryMigrations } from '../index';
import { projectBatch } from '../projector/projector';
import { erasedForPublishing } from '../read-models/event-feed/published';
import { runAudit } from './audit';

const NAME = 'Carol Quimby';
const TYPED = 'Write to Carol at 12 Acacia Avenue';

/**
 * The copies of the store handed out of the product after an account is deleted (docs/decisions/hash-chain.md
 * "Erasure"): `npm run audit -- export --from … --to …` and the Kafka topic carry the events with the deleted
 * person's words removed by the event feed's own rule, while the store itself is untouched: `verify --all` still
 * finds every chain intact, and each erased line carries the content digest of the event as stored, from which its
 * link in the chain is recomputed. Real PostgreSQL.
 */
describe('the range export and the Kafka topic, after an account is deleted', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  let dir: string;
  const carol = randomUUID();
  let bob: string;
  const conversationId = 77;
  const agent: EventMetadata = { actor: { kind: 'agent', agentId: 2 }, correlationId: 'c', causationId: null };
  const carolActs: EventMetadata = { actor: { kind: 'user', userId: carol, sessionId: 's-carol' }, correlationId: 'c', causationId: null };

  async function audit(...argv: string[]): Promise<{ status: number; out: string }> {
    const lines: string[] = [];
    const status = await runAudit(argv, {
      store: context.storedEvents,
      pool: context.pool,
      print: (line) => lines.push(line),
      now: () => new Date(),
    });
    return { status, out: lines.join('\n') };
  }
  const append = (stream: string, event: DomainEvent, metadata = agent) =>
    context.store.append(stream, [{ id: randomUUID(), ...event, metadata }], 'any');
  const project = async () => {
    for (let batch = await context.store.readAll(START, 1000); batch.length > 0;) {
      const last = await projectBatch(context.pool, batch);
      batch = await context.store.readAll(last, 1000);
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    context = await openServiceContext(
      parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
      createLogger('warn', 'erased-copies-test'),
      database.url,
      queryMigrations,
    );
    dir = await mkdtemp(path.join(os.tmpdir(), 'pf-erased-copies-'));
    // Bob stays (his account row); Carol's row is gone, as Delete Account leaves it.
    bob = (await context.sessions.signInGuest(undefined)).user.id;
    const created = (agentId: number, ownerId: string, name: string, type: 'borrower' | 'lender'): DomainEvent => ({
      type: 'AgentCreated',
      data: { agentId, ownerId, name, type, description: `${name}'s agent`, criteria: null },
    });
    await append(streams.agent(1), created(1, carol, NAME, 'borrower'), carolActs);
    await append(streams.agent(2), created(2, bob, 'Northgate Lending', 'lender'));
    const participants = [
      { agentId: 1, ownerId: carol, name: NAME, type: 'borrower' as const },
      { agentId: 2, ownerId: bob, name: 'Northgate Lending', type: 'lender' as const },
    ];
    const stream = streams.conversation(conversationId);
    await append(stream, {
      type: 'ConversationStarted',
      data: { conversationId, title: `${NAME} ↔ Northgate Lending · £300,000`, participants, matchId: null },
    });
    await append(
      stream,
      { type: 'MessageSent', data: { conversationId, messageId: 1, fromAgentId: 1, toAgentId: 2, content: TYPED, isAutomated: false } },
      carolActs,
    );
    await append(stream, {
      type: 'OfferMade',
      data: {
        conversationId,
        offerId: 'o1',
        round: 1,
        fromAgentId: 2,
        toAgentId: 1,
        terms: { interestRate: 4.5, termYears: 25, loanAmount: 200_000, arrangementFee: 999 },
      },
    });
    await append(streams.user(carol), { type: 'AccountDeleted', data: { userId: carol } }, carolActs);
    await project();
  });
  afterAll(async () => {
    await context?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("removes the deleted person's words from every line; each erased line still checks against its stored hash", async () => {
    const file = path.join(dir, 'range.jsonl');
    const range = await audit('export', '--from', '2000-01-01T00:00:00Z', '--to', '2999-01-01T00:00:00Z', '--out', file);
    expect(range).toMatchObject({ status: 0 });
    expect(range.out).toContain(
      "6 events recorded from 2000-01-01T00:00:00Z to 2999-01-01T00:00:00Z (4 with a deleted person's data removed)",
    );
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('Quimby');
    expect(text).not.toContain('Acacia');
    expect(text).not.toContain('s-carol');
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; type: string; stream: string; redacted?: string[]; contentDigest?: string });
    expect(lines.map((line) => [line.type, line.redacted ?? []])).toEqual([
      ['AgentCreated', ['data.name', 'data.description', 'metadata.actor.sessionId']],
      ['AgentCreated', []],
      ['ConversationStarted', ['data.title', 'data.participants']],
      ['MessageSent', ['data.content', 'metadata.actor.sessionId']],
      ['OfferMade', []],
      ['AccountDeleted', ['metadata.actor.sessionId']],
    ]);
    // What the lender's side wrote and every figure stay.
    expect(text).toContain('Northgate Lending');
    expect(text).toContain('"interestRate":4.5');
    // The digest of each erased line is the stored event's, which its hash covers.
    for (const line of lines.filter((l) => l.redacted)) {
      const stored = (await context.storedEvents.readStream(line.stream)).find((event) => event.id === line.id)!;
      expect(line.contentDigest).toBe(contentDigest(stored));
      expect(linkHash(stored.previousHash ?? null, stored.streamVersion, line.contentDigest!)).toBe(stored.hash);
    }
    // The store is untouched: every chain verifies.
    expect(await audit('verify', '--all')).toMatchObject({ status: 0, out: expect.stringContaining('every chain is intact') as unknown });
  });

  it('refuses to export events the read models have not applied (it could not tell who deleted their account)', async () => {
    await append(streams.conversation(conversationId), {
      type: 'MessageSent',
      data: { conversationId, messageId: 2, fromAgentId: 2, toAgentId: 1, content: 'Are you there?', isAutomated: true },
    });
    const refused = await audit('export', '--from', '2000-01-01T00:00:00Z', '--to', '2999-01-01T00:00:00Z');
    expect(refused.status).toBe(1);
    expect(refused.out).toMatch(/The read models have applied events up to \S+ only, and \S+ is to be exported/);
    await project();
    expect((await audit('export', '--from', '2000-01-01T00:00:00Z', '--to', '2999-01-01T00:00:00Z')).status).toBe(0);
  });

  it('publishes to Kafka what the feed hands out, once the read models have applied the batch', async () => {
    const batch = await context.store.readAll(START, 1000);
    // The projector is behind at first: the eraser waits (NotCaughtUp) rather than publish unerased.
    let looks = 0;
    const progress = {
      waitFor: async () => {
        if (++looks < 3) throw new NotCaughtUp('the batch', 1);
      },
    };
    const published = await erasedForPublishing(context.pool, progress, 1)(batch);
    expect(looks).toBe(3);
    const values = published.map(({ event, redacted }) => toMessage(event, redacted).value);
    expect(values.join('\n')).not.toContain('Quimby');
    expect(values.join('\n')).not.toContain('Acacia');
    const envelopes = values.map((value) => JSON.parse(value) as { type: string; redacted?: string[] });
    // The lender's automated message after the deletion loses its words too (the engine's words name both parties).
    expect(envelopes.filter((e) => e.redacted).map((e) => e.type)).toEqual([
      'AgentCreated',
      'ConversationStarted',
      'MessageSent',
      'AccountDeleted',
      'MessageSent',
    ]);
    // What a job reads is the erased event, every figure kept.
    expect(values.map((value) => parseMessage(value).type)).toEqual(batch.map((event) => event.type));
    expect(values.join('\n')).toContain('"interestRate":4.5');
  });
});
