import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions, parsePosition, type ConversationView, type MessageView, type ServerMessage } from '@pf/events';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
// The composition root, used here only to test the gateway as the product runs it.
import { startSingleNode, type RunningServer } from '@pf/single-node';
import { ApiClient } from '@pf/single-node/testing/api-client';
import { testServerEnv } from '@pf/single-node/testing/server-env';
import { connect, percentile, RefusedUpgrade, type TestSocket } from './testing/socket-client';

/** The gateway's pushes (docs/architecture.md, "A push"), against the single-node server with the real command-service. */
let database: TestDatabase;
let server: RunningServer;
let wsUrl: string;
let alice: ApiClient;
let mallory: ApiClient;
let conversation: ConversationView;
const sockets: TestSocket[] = [];

const socketOf = async (client: ApiClient) => {
  const socket = await connect(wsUrl, { cookie: client.cookie, origin: server.url });
  sockets.push(socket);
  return socket;
};
type Created = Extract<ServerMessage, { type: 'message_created' }>;
const isMessage =
  (content: string) =>
  (message: ServerMessage): message is Created =>
    message.type === 'message_created' && message.message.content === content;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startSingleNode(testServerEnv(database.url));
  wsUrl = `${server.url.replace(/^http/, 'ws')}/ws`;
  alice = await ApiClient.signIn(server.url);
  mallory = await ApiClient.signIn(server.url);
  expect((await alice.post('/api/seed-demo')).status).toBeLessThan(300);
  const list = await alice.get('/api/conversations');
  conversation = (list.body as ConversationView[]).find((item) => item.status === 'active')!;
  expect(conversation).toBeDefined();
});

afterAll(async () => {
  await Promise.all(sockets.map((socket) => socket.close()));
  await server?.close();
  await database?.drop();
});

describe('the realtime gateway on the single-node server', () => {
  it('refuses a socket without a session or from a foreign Origin', async () => {
    const status = (headers: { cookie?: string; origin?: string }) =>
      connect(wsUrl, headers).then(
        (socket) => (sockets.push(socket), 'opened'),
        (error: unknown) => (error instanceof RefusedUpgrade ? error.status : String(error)),
      );
    expect(await status({ origin: server.url })).toBe(401);
    expect(await status({ cookie: alice.cookie, origin: 'https://attacker.example' })).toBe(403);
    expect(await status({ cookie: alice.cookie })).toBe(403);
    expect(await status({ cookie: alice.cookie, origin: server.url })).toBe('opened');
  });

  it('shares a mode change and a typed message between two sockets of a user, and nothing with another user', async () => {
    const conversationId = conversation.id;
    const [first, second, stranger] = await Promise.all([socketOf(alice), socketOf(alice), socketOf(mallory)]);
    expect(await first.request({ type: 'subscribe', conversationId })).toMatchObject({ type: 'ack' });
    expect(await second.request({ type: 'subscribe', conversationId })).toMatchObject({ type: 'ack' });
    expect(await stranger.request({ type: 'subscribe', conversationId })).toMatchObject({
      type: 'error',
      message: 'Conversation not found',
    });

    expect(await first.request({ type: 'manual_override', conversationId, enabled: true })).toMatchObject({ type: 'ack' });
    expect(
      await second.next((message) => message.type === 'conversation_updated' && message.conversation.id === conversationId),
    ).toMatchObject({ conversation: { isManualMode: true } });

    const content = 'I can offer 4.1% over 25 years.';
    const sent = await first.request({ type: 'send_message', conversationId, content: `  ${content} `, isAutomated: true });
    expect(sent).toMatchObject({ type: 'ack', position: expect.stringMatching(/^\d+:\d+$/) as unknown });
    for (const socket of [first, second]) {
      expect(await socket.next(isMessage(content))).toMatchObject({ message: { isAutomated: false, conversationId } });
    }
    // Read your writes, as the console does: the ack's position goes with the next read.
    alice.lastPosition = (sent as { position: string }).position;
    const stored = (await alice.get(`/api/conversations/${conversationId}/messages`)).body as MessageView[];
    expect(stored.find((message) => message.content === content)).toMatchObject({ isAutomated: false });

    expect(await stranger.request({ type: 'send_message', conversationId, content: 'let me in' })).toMatchObject({
      type: 'error',
    });
    expect(await stranger.request({ type: 'manual_override', conversationId, enabled: false })).toMatchObject({
      type: 'error',
    });
    expect(stranger.received.filter((message) => 'previousPosition' in message)).toEqual([]);
  });

  it('replays everything a dropped socket missed when it resumes from its last position', async () => {
    const conversationId = conversation.id;
    const away = await socketOf(alice);
    const talker = await socketOf(alice);
    await away.request({ type: 'subscribe', conversationId });
    await talker.request({ type: 'send_message', conversationId, content: 'before the drop' });
    await away.next(isMessage('before the drop'));
    const last = away.received.filter((message) => 'previousPosition' in message).at(-1) as { position: string };
    await away.close();

    const missed = Array.from({ length: 8 }, (_, i) => `missed ${i}`);
    for (const content of missed) await talker.request({ type: 'send_message', conversationId, content });
    await talker.request({ type: 'manual_override', conversationId, enabled: false });

    const back = await socketOf(alice);
    back.send({ type: 'subscribe', conversationId });
    expect(await back.request({ type: 'resume', afterPosition: last.position })).toMatchObject({ type: 'ack' });
    await back.request({ type: 'manual_override', conversationId, enabled: true });
    await talker.request({ type: 'send_message', conversationId, content: 'after the return' });
    const chat = 'Read as chat: no offer recorded';
    await back.next((message) => isMessage(chat)(message) && back.received.filter(isMessage(chat)).length === missed.length + 1);
    const contents = back.received.flatMap((message) => (message.type === 'message_created' ? [message.message.content] : []));
    // Each person's message comes with the note on how it was read, recorded with it (no offer in any of these).
    expect(contents).toEqual([...missed, 'after the return'].flatMap((content) => [content, chat]));
    // No gap and no repeat: each push names the one sent before it, and no (position, type) comes twice.
    const pushes = back.received.filter((message) => 'previousPosition' in message);
    pushes.forEach((push, i) => expect(push.previousPosition).toBe(i === 0 ? null : pushes[i - 1]!.position));
    expect(new Set(pushes.map((push) => `${push.position} ${push.type}`)).size).toBe(pushes.length);
    // Control is per side (docs/decisions/per-side-control.md): a hand-back or takeover naming no side switches
    // each of the caller's sides, one ManualModeChanged and so one conversation_updated each, in order.
    const updates = pushes.filter(
      (message): message is Extract<ServerMessage, { type: 'conversation_updated' }> =>
        message.type === 'conversation_updated' && message.conversation.id === conversationId,
    );
    const ownSides = conversation.control.filter((side) => side.isMine).length;
    expect(ownSides).toBeGreaterThan(0);
    expect(updates).toHaveLength(2 * ownSides);
    for (let i = 1; i < updates.length; i++) {
      expect(comparePositions(parsePosition(updates[i]!.position), parsePosition(updates[i - 1]!.position))).toBeGreaterThan(0);
    }
    const handedBack = updates[ownSides - 1]!.conversation;
    expect(handedBack.isManualMode).toBe(false);
    expect(handedBack.control.filter((side) => side.isManual)).toEqual([]);
    const takenOver = updates.slice(ownSides).map((update) => update.conversation);
    expect(takenOver.map((view) => view.isManualMode)).toEqual(Array.from({ length: ownSides }, () => true));
    expect(takenOver.at(-1)!.control.filter((side) => side.isMine && !side.isManual)).toEqual([]);
  });

  it('measures the time from a command’s acceptance to its push on a watching socket', async () => {
    const conversationId = conversation.id;
    const watcher = await socketOf(alice);
    await watcher.request({ type: 'subscribe', conversationId });
    const fromRequest: number[] = [];
    const fromAnswer: number[] = [];
    for (let i = 0; i < 200; i++) {
      const content = `latency probe ${i}`;
      const pushed = watcher.next(isMessage(content));
      const sentAt = performance.now();
      const answer = await alice.post(`/api/conversations/${conversationId}/messages`, { content });
      const acceptedAt = performance.now();
      expect(answer.status).toBe(201);
      await pushed;
      const arrivedAt = watcher.arrivedAt[watcher.received.findIndex(isMessage(content))]!;
      fromRequest.push(arrivedAt - sentAt);
      fromAnswer.push(arrivedAt - acceptedAt);
    }
    const line = (name: string, samples: number[]) =>
      `${name}: p50 ${percentile(samples, 50).toFixed(1)} ms, p99 ${percentile(samples, 99).toFixed(1)} ms`;
    console.log(
      `[realtime-gateway] ${fromAnswer.length} messages; ${line('command answered → push', fromAnswer)} ` +
        `(negative: the push arrived before the answer); ${line('command sent → push', fromRequest)}`,
    );
    expect(fromAnswer).toHaveLength(200);
  });
});
