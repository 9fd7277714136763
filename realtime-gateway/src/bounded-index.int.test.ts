import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, type ServerMessage } from '@pf/events';
import { startHarness, type Harness } from './testing/gateway-harness';
import { seedConversation, withMetadata } from './testing/appending-command-client';
import { connect } from './testing/socket-client';

/**
 * A gateway copy started on a history it never followed, with an index of at most 100 entries a map
 * (docs/decisions/bounded-restart.md): it begins at the head, loads from the store what a socket or an event needs,
 * and pushes exactly what it pushed when it kept everything; a person deleted before it started is erased in
 * what it loads. Real PostgreSQL and sockets.
 */
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ indexEntries: 100 });
});
afterAll(() => harness?.close());

const updatesOf = (received: readonly ServerMessage[], conversationId: number) =>
  received.filter((message) => message.type === 'conversation_updated' && message.conversation.id === conversationId);

describe('a gateway copy started on a long history with a small index', () => {
  it('subscribes, pushes to the entitled only, and names a deleted person’s agent as every reader does', async () => {
    const alice = await harness.signIn();
    const bob = await harness.signIn();
    const mallory = await harness.signIn();
    const dave = await harness.signIn();
    const carolId = randomUUID();
    const first = await harness.conversationOf(alice.userId, bob.userId);
    const withCarol = await harness.conversationOf(dave.userId, carolId);
    // Carol deletes her account; then 150 conversations of other people: far more than the index keeps.
    await harness.store.append(
      streams.user(carolId),
      [withMetadata({ type: 'AccountDeleted', data: { userId: carolId } }, carolId)],
      'any',
    );
    for (let i = 0; i < 150; i++) {
      const [a, b] = [randomUUID(), randomUUID()];
      await seedConversation(harness.store, 10_000 + i, [
        { agentId: 20_000 + 2 * i, ownerId: a, firmId: a, name: `Borrower ${i}`, type: 'borrower' },
        { agentId: 20_001 + 2 * i, ownerId: b, firmId: b, name: `Lender ${i}`, type: 'lender' },
      ]);
    }

    // A copy started now begins at the head: what it needs of the history it loads.
    const copy = await harness.anotherCopy();
    const socketOn = (cookie: string) => connect(copy.wsUrl, { cookie, origin: copy.origin });
    const aliceSocket = await socketOn(alice.cookie);
    const bobSocket = await socketOn(bob.cookie);
    const mallorySocket = await socketOn(mallory.cookie);
    const daveSocket = await socketOn(dave.cookie);
    try {
      expect(await aliceSocket.request({ type: 'subscribe', conversationId: first.conversationId })).toMatchObject({ type: 'ack' });
      expect(await mallorySocket.request({ type: 'subscribe', conversationId: first.conversationId })).toEqual(
        expect.objectContaining({ type: 'error', message: 'Conversation not found' }),
      );

      // Alice takes over: both owners' consoles are told, with their agents' names; Mallory is told nothing.
      const toggled = (await aliceSocket.request({ type: 'manual_override', conversationId: first.conversationId, enabled: true })) as {
        position: string;
      };
      for (const socket of [aliceSocket, bobSocket]) {
        const update = await socket.next(
          (message) =>
            message.type === 'conversation_updated' &&
            message.conversation.id === first.conversationId &&
            message.position === toggled.position,
        );
        expect(update.type === 'conversation_updated' && update.conversation.participants.map((p) => p.name)).toEqual([
          'Brenda Borrower',
          'Larry Lender',
        ]);
      }
      // Mallory's socket answers a request after the push went out: nothing of that conversation reached it.
      expect(await mallorySocket.request({ type: 'subscribe', conversationId: withCarol.conversationId })).toMatchObject({ type: 'error' });
      expect(updatesOf(mallorySocket.received, first.conversationId)).toEqual([]);

      // Dave's conversation with Carol, loaded after she deleted her account: her agent is "Deleted agent".
      expect(await daveSocket.request({ type: 'subscribe', conversationId: withCarol.conversationId })).toMatchObject({ type: 'ack' });
      const daveToggled = (await daveSocket.request({
        type: 'manual_override',
        conversationId: withCarol.conversationId,
        enabled: true,
      })) as { position: string };
      const daveUpdate = await daveSocket.next(
        (message) =>
          message.type === 'conversation_updated' &&
          message.conversation.id === withCarol.conversationId &&
          message.position === daveToggled.position,
      );
      expect(daveUpdate.type === 'conversation_updated' && daveUpdate.conversation.participants.map((p) => p.name)).toEqual([
        'Brenda Borrower',
        'Deleted agent',
      ]);
    } finally {
      await Promise.all([aliceSocket, bobSocket, mallorySocket, daveSocket].map((socket) => socket.close()));
    }
  });
});
