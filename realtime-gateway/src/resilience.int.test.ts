import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareTokens, streams, type ServerMessage } from '@pf/events';
import { notifyTyping } from '@pf/infra';
import { withMetadata } from './testing/appending-command-client';
import { startHarness, type Harness } from './testing/gateway-harness';
import type { TestSocket } from './testing/socket-client';

let harness: Harness;
const MAX_BUFFERED = 256 * 1024;

beforeAll(async () => {
  harness = await startHarness({ burst: 1000, perSecond: 1000, maxBufferedBytes: MAX_BUFFERED, pingIntervalMs: 150 });
});
afterAll(() => harness?.close());

type Created = Extract<ServerMessage, { type: 'message_created' }>;
const messagesOf = (socket: TestSocket, conversationId: number) =>
  socket.received.filter((message): message is Created => message.type === 'message_created' && message.conversationId === conversationId);

describe('resume', () => {
  // docs/architecture.md "A push": a socket that reconnects resumes from the last position it saw and misses nothing.
  it('delivers everything missed while away, then live, with no gap and no duplicate', async () => {
    const alice = await harness.signIn();
    const bob = await harness.signIn();
    const { conversationId } = await harness.conversationOf(alice.userId, bob.userId);
    const writer = await harness.socketFor(bob.cookie);
    const send = async (content: string) =>
      expect(await writer.request({ type: 'send_message', conversationId, content })).toMatchObject({ type: 'ack' });

    const first = await harness.socketFor(alice.cookie);
    await first.request({ type: 'subscribe', conversationId });
    for (const content of ['one', 'two', 'three']) await send(content);
    await first.next((message) => message.type === 'message_created' && message.message.content === 'three');
    const lastSeen = first.received.filter((message) => 'previousPosition' in message).at(-1)!;
    await first.close();

    // Bob keeps talking while Alice is away, and while she comes back and resumes.
    let writing = true;
    const sent: string[] = [];
    const talking = (async () => {
      for (let i = 0; writing || i < 30; i++) {
        const content = `while away ${i}`;
        await send(content);
        sent.push(content);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const second = await harness.socketFor(alice.cookie);
    second.send({ type: 'subscribe', conversationId });
    const resumed = second.request({ type: 'resume', afterPosition: (lastSeen as { position: string }).position });
    expect(await resumed).toMatchObject({ type: 'ack' });
    writing = false;
    await talking;
    await send('after the resume');

    await second.next((message) => message.type === 'message_created' && message.message.content === 'after the resume');
    const contents = messagesOf(second, conversationId).map((message) => message.message.content);
    expect(contents).toEqual([...sent, 'after the resume']);
    const pushes = second.received.filter((message) => 'previousPosition' in message);
    for (let i = 1; i < pushes.length; i++) {
      expect(pushes[i]!.previousPosition).toBe(pushes[i - 1]!.position);
      expect(compareTokens(pushes[i]!.position, pushes[i - 1]!.position)).toBeGreaterThanOrEqual(0);
    }
    expect(compareTokens(pushes[0]!.position, (lastSeen as { position: string }).position)).toBeGreaterThan(0);
  });
});

describe('typing', () => {
  it('reaches the sockets following that conversation, and no one else', async () => {
    const alice = await harness.signIn();
    const bob = await harness.signIn();
    const mallory = await harness.signIn();
    const { conversationId, bobAgent } = await harness.conversationOf(alice.userId, bob.userId);
    const following = await harness.socketFor(alice.cookie);
    const notFollowing = await harness.socketFor(alice.cookie);
    const stranger = await harness.socketFor(mallory.cookie);
    await following.request({ type: 'subscribe', conversationId });
    await stranger.request({ type: 'subscribe', conversationId });
    await notifyTyping(harness.pool, { conversationId, agentId: bobAgent, agentName: 'Larry Lender' });
    expect(await following.next((message) => message.type === 'typing')).toEqual({
      type: 'typing',
      conversationId,
      agentId: bobAgent,
      agentName: 'Larry Lender',
    });
    // A later push to everyone proves the others were passed over, not merely slow.
    await following.request({ type: 'manual_override', conversationId, enabled: true });
    await notFollowing.next((message) => message.type === 'conversation_updated');
    expect(notFollowing.received.some((message) => message.type === 'typing')).toBe(false);
    expect(stranger.received.some((message) => message.type === 'typing')).toBe(false);
  });
});

describe('dead and unwanted sockets', () => {
  it('drops a socket that stops answering pings', async () => {
    const alice = await harness.signIn();
    const silent = await harness.socketFor(alice.cookie, { autoPong: false });
    const answering = await harness.socketFor(alice.cookie);
    expect((await silent.closed).code).toBe(1006);
    expect(answering.ws.readyState).toBe(answering.ws.OPEN);
  });

  it('closes the sockets of a session that was revoked', async () => {
    const alice = await harness.signIn();
    const socket = await harness.socketFor(alice.cookie);
    await harness.sessions.revoke(alice.token);
    expect(await socket.closed).toEqual({ code: 4401, reason: 'Session ended' });
  });
});

describe('backpressure', () => {
  // Its own gateway, with keep-alive out of the way: a paused client would otherwise miss a pong first.
  let quiet: Harness;
  beforeAll(async () => {
    quiet = await startHarness({ maxBufferedBytes: MAX_BUFFERED, pingIntervalMs: 600_000 });
  });
  afterAll(() => quiet?.close());

  it('cuts off a client that stops reading instead of buffering for it without bound', async () => {
    const alice = await quiet.signIn();
    const bob = await quiet.signIn();
    const { conversationId, aliceAgent } = await quiet.conversationOf(alice.userId, bob.userId);
    const reader = await quiet.socketFor(alice.cookie);
    await reader.request({ type: 'subscribe', conversationId });
    // Stop reading from the TCP connection; the kernel's buffers fill, then the server's.
    const raw = (reader.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const stream = streams.conversation(conversationId);
    const content = 'x'.repeat(4000);
    let version = 0;
    let messageId = 1;
    const closed = reader.closed.then(() => true);
    for (let round = 0; round < 60 && !(await Promise.race([closed, Promise.resolve(false)])); round++) {
      const events = Array.from({ length: 100 }, () =>
        withMetadata(
          {
            type: 'MessageSent',
            data: { conversationId, messageId: messageId++, fromAgentId: aliceAgent, toAgentId: null, content, isAutomated: true },
          },
          alice.userId,
        ),
      );
      version = (await quiet.store.append(stream, events, version)).nextExpectedVersion;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    raw.resume();
    expect(await closed).toBe(true);
  });
});
