import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareTokens, streams } from '@pf/events';
import { SESSION_COOKIE } from '@pf/infra';
import { startHarness, type Harness } from './testing/gateway-harness';
import { connect, RefusedUpgrade } from './testing/socket-client';

/**
 * The gateway on a real Fastify server and real PostgreSQL, with real ws clients. Commands go to a
 * test double that appends events as the command-service would (single-node tests cover the real one).
 */
let harness: Harness;
let origin: string;
let wsUrl: string;
const signIn = () => harness.signIn();
const socketFor = (cookie: string) => harness.socketFor(cookie);
const conversationOf = (a: string, b: string) => harness.conversationOf(a, b);

beforeAll(async () => {
  harness = await startHarness();
  ({ origin, wsUrl } = harness);
});
afterAll(() => harness?.close());

describe('the upgrade', () => {
  it('refuses a socket without a session, with a foreign Origin or with none', async () => {
    const { cookie } = await signIn();
    const refusal = (headers: { cookie?: string; origin?: string }) =>
      connect(wsUrl, headers).then(
        () => 'opened',
        (error: unknown) => (error instanceof RefusedUpgrade ? error.status : String(error)),
      );
    expect(await refusal({ origin })).toBe(401);
    expect(await refusal({ origin, cookie: `${SESSION_COOKIE}=forged` })).toBe(401);
    expect(await refusal({ cookie, origin: 'https://evil.example' })).toBe(403);
    expect(await refusal({ cookie })).toBe(403);
    expect(await refusal({ cookie, origin })).toBe('opened');
  });
});

describe('following a conversation', () => {
  it('pushes a mode change and a person’s message to both sockets of the owner, and nothing to a stranger', async () => {
    const alice = await signIn();
    const bob = await signIn();
    const mallory = await signIn();
    const { conversationId, aliceAgent } = await conversationOf(alice.userId, bob.userId);
    const [first, second, stranger] = await Promise.all([socketFor(alice.cookie), socketFor(alice.cookie), socketFor(mallory.cookie)]);
    expect(await first.request({ type: 'subscribe', conversationId })).toMatchObject({ type: 'ack' });
    expect(await second.request({ type: 'subscribe', conversationId })).toMatchObject({ type: 'ack' });
    expect(await stranger.request({ type: 'subscribe', conversationId })).toEqual(
      expect.objectContaining({ type: 'error', message: 'Conversation not found' }),
    );

    const toggled = await first.request({ type: 'manual_override', conversationId, enabled: true });
    expect(toggled).toMatchObject({ type: 'ack', position: expect.stringMatching(/^\d+:\d+$/) as unknown });
    // The conversation's own start may still be pushed first when the follower was behind as the sockets opened.
    const update = await second.next(
      (message) =>
        message.type === 'conversation_updated' &&
        message.conversation.id === conversationId &&
        message.position === (toggled as { position: string }).position,
    );
    expect(update).toMatchObject({ conversation: { isManualMode: true }, position: (toggled as { position: string }).position });

    const sent = await first.request({
      type: 'send_message',
      conversationId,
      content: '  Could we talk about 4.2%?  ',
      isAutomated: true,
    });
    expect(sent.type).toBe('ack');
    for (const socket of [first, second]) {
      const pushed = await socket.next((message) => message.type === 'message_created' && message.conversationId === conversationId);
      expect(pushed).toMatchObject({
        message: { content: 'Could we talk about 4.2%?', isAutomated: false, fromAgentId: aliceAgent, fromAgentName: 'Brenda Borrower' },
      });
    }
    const stored = await harness.store.readStream(streams.conversation(conversationId));
    expect(stored.at(-1)).toMatchObject({ type: 'MessageSent', data: { isAutomated: false } });

    // The stranger has heard nothing of it; a message of theirs is not stored either.
    expect(await stranger.request({ type: 'send_message', conversationId, content: 'hi' })).toMatchObject({
      type: 'error',
      message: 'Conversation not found',
    });
    expect(stranger.received.filter((message) => 'previousPosition' in message)).toEqual([]);
  });

  it('chains each push to the previous one sent on the same socket', async () => {
    const alice = await signIn();
    const bob = await signIn();
    const socket = await socketFor(alice.cookie);
    const { conversationId } = await conversationOf(alice.userId, bob.userId);
    await socket.request({ type: 'subscribe', conversationId });
    await socket.request({ type: 'send_message', conversationId, content: 'one' });
    await socket.next((message) => message.type === 'message_created');
    const pushes = socket.received.filter((message) => 'previousPosition' in message);
    expect(pushes.length).toBeGreaterThanOrEqual(4);
    expect(pushes[0]!.previousPosition).toBeNull();
    for (let i = 1; i < pushes.length; i++) {
      expect(pushes[i]!.previousPosition).toBe(pushes[i - 1]!.position);
      expect(compareTokens(pushes[i]!.position, pushes[i - 1]!.position)).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('bad messages', () => {
  it('answers each with the problem and keeps the socket open', async () => {
    const alice = await signIn();
    const socket = await socketFor(alice.cookie);
    socket.send('{not json');
    expect(await socket.next((message) => message.type === 'error')).toMatchObject({ message: 'Messages must be valid JSON' });
    expect(await socket.request({ type: 'send_message', conversationId: 1, content: '   ' })).toMatchObject({
      type: 'error',
      message: 'content: Message is empty',
    });
    expect(await socket.request({ type: 'subscribe', conversationId: 'seven' } as never)).toMatchObject({
      type: 'error',
      message: 'conversationId: conversationId must be a whole number',
    });
    expect(await socket.request({ type: 'unsubscribe', conversationId: 3 })).toMatchObject({ type: 'ack' });
  });

  it('refuses a flood beyond the burst without closing the socket', async () => {
    const alice = await signIn();
    const socket = await socketFor(alice.cookie);
    for (let i = 0; i < 60; i++) socket.send({ type: 'unsubscribe', conversationId: 1, requestId: `f${i}` });
    await socket.next((message) => message.type === 'error' && message.message.startsWith('Too many messages'));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await socket.request({ type: 'unsubscribe', conversationId: 1 })).toMatchObject({ type: 'ack' });
  });
});

describe('several gateway copies', () => {
  // docs/architecture.md "A push": an append wakes every gateway (NOTIFY), whichever copy the command went through.
  it('delivers a command sent through one copy to a socket on another', async () => {
    const alice = await signIn();
    const bob = await signIn();
    const { conversationId } = await conversationOf(alice.userId, bob.userId);
    const copy = await harness.anotherCopy();
    const elsewhere = await connect(copy.wsUrl, { cookie: alice.cookie, origin: copy.origin });
    try {
      await elsewhere.request({ type: 'subscribe', conversationId });
      const here = await socketFor(bob.cookie);
      expect(await here.request({ type: 'send_message', conversationId, content: 'across copies' })).toMatchObject({ type: 'ack' });
      expect(
        await elsewhere.next((message) => message.type === 'message_created' && message.message.content === 'across copies'),
      ).toMatchObject({ message: { isAutomated: false } });
    } finally {
      await elsewhere.close();
    }
  });
});
