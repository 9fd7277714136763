import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { streams, type ConversationView, type EventMetadata } from '@pf/events';
import type { EventStore, SessionStore } from '@pf/infra';
import { reserveIds } from '../lib/generate';
import { benchUser, call, expectStatus, type BenchUser } from '../lib/session';
import { concurrently, distribution, round, type Distribution } from '../lib/stats';

export interface RoundtripResult {
  readonly command_roundtrip_ms: Distribution;
  readonly crud_roundtrip_ms: Distribution;
  readonly command_roundtrip_ratio: number;
}

/** Each client gets a user of its own with an active conversation between two of its agents. */
async function usersWithConversations(pool: pg.Pool, store: EventStore, sessions: SessionStore, count: number) {
  const ids = await reserveIds(pool, count);
  return Promise.all(
    Array.from({ length: count }, async () => {
      const user = await benchUser(sessions);
      const metadata: EventMetadata = { actor: { kind: 'user', userId: user.id }, correlationId: randomUUID(), causationId: null };
      const participants = (['borrower', 'lender'] as const).map((type) => ({
        agentId: ids.agent(),
        ownerId: user.id,
        name: `${type} of ${user.id.slice(0, 8)}`,
        type,
      }));
      for (const agent of participants) {
        await store.append(
          streams.agent(agent.agentId),
          [{ id: randomUUID(), type: 'AgentCreated', data: { ...agent, description: 'bench', criteria: null }, metadata }],
          'no_stream',
        );
      }
      const conversationId = ids.conversation();
      const started = await store.append(
        streams.conversation(conversationId),
        [
          {
            id: randomUUID(),
            type: 'ConversationStarted',
            data: { conversationId, title: 'Round trip', participants, matchId: null },
            metadata,
          },
        ],
        'no_stream',
      );
      return { user, conversationId, position: `${started.position.commit}:${started.position.prepare}`, manual: false };
    }),
  );
}

/**
 * The write-then-read round trip, 50 clients side by side for a fixed time. Ours: PATCH a conversation's
 * mode (a command: load the stream, decide, append), then GET it with the answer's x-after-position
 * until the change shows. Baseline: POST one row in one transaction, then GET it by id.
 */
export async function measureRoundtrips(options: {
  productUrl: string;
  baselineUrl: string;
  pool: pg.Pool;
  store: EventStore;
  sessions: SessionStore;
  clients: number;
  seconds: number;
}): Promise<RoundtripResult> {
  const clients = await usersWithConversations(options.pool, options.store, options.sessions, options.clients);
  for (const client of clients) {
    expectStatus(
      await call(options.productUrl, client.user, 'GET', `/api/conversations/${client.conversationId}`, undefined, client.position),
      200,
      'a seeded conversation',
    );
  }

  const ours = async (client: (typeof clients)[number], samples: number[] | null) => {
    const wanted = !client.manual;
    const started = performance.now();
    const answer = expectStatus(
      await call(options.productUrl, client.user, 'PATCH', `/api/conversations/${client.conversationId}`, { isManualMode: wanted }),
      200,
      'PATCH',
    );
    for (;;) {
      const read = expectStatus(
        await call<ConversationView>(
          options.productUrl,
          client.user,
          'GET',
          `/api/conversations/${client.conversationId}`,
          undefined,
          answer.position,
        ),
        200,
        'GET',
      );
      if (read.body.isManualMode === wanted) break;
    }
    client.manual = wanted;
    samples?.push(performance.now() - started);
  };
  const theirs = async (user: BenchUser, samples: number[] | null) => {
    const started = performance.now();
    const answer = expectStatus(
      await call<{ id: number }>(options.baselineUrl, null, 'POST', '/crud/items', {
        ownerId: user.id,
        name: 'Round trip',
        payload: { isManualMode: true },
      }),
      201,
      'POST',
    );
    while ((await call(options.baselineUrl, null, 'GET', `/crud/items/${answer.body.id}`)).status !== 200);
    samples?.push(performance.now() - started);
  };

  const run = async (seconds: number, work: (index: number, samples: number[]) => Promise<void>) => {
    const samples: number[] = [];
    const end = performance.now() + seconds * 1000;
    await concurrently(
      clients.length,
      () => performance.now() >= end,
      (index) => work(index, samples),
    );
    return samples;
  };
  await run(1, (index) => ours(clients[index]!, null));
  const commandSamples = await run(options.seconds, (index, samples) => ours(clients[index]!, samples));
  await run(1, (index) => theirs(clients[index]!.user, null));
  const crudSamples = await run(options.seconds, (index, samples) => theirs(clients[index]!.user, samples));
  const command = distribution(commandSamples);
  const crud = distribution(crudSamples);
  return { command_roundtrip_ms: command, crud_roundtrip_ms: crud, command_roundtrip_ratio: round(command.p99 / crud.p99, 3) };
}
