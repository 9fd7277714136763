import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams, type ServerMessage } from '@pf/events';
import { startHarness, type Harness } from './testing/gateway-harness';
import { connect, type TestSocket } from './testing/socket-client';
import { PRESENCE_CHANNEL } from './presence-signal';

/**
 * Presence and control requests over real sockets, real PostgreSQL NOTIFY and two gateway copies. Heartbeats
 * and typing are shortened so that expiry is seen within a test; no assertion is about how long anything took.
 */
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ presenceHeartbeatMs: 200, typingShownMs: 600 });
});
afterAll(() => harness?.close());

type Presence = Extract<ServerMessage, { type: 'presence' }>;
const presenceOf =
  (conversationId: number, check: (message: Presence) => boolean) =>
  (message: ServerMessage): message is Presence =>
    message.type === 'presence' && message.conversationId === conversationId && check(message);
/** The next message matching, among those received from now on (TestSocket.next also looks at earlier ones). */
function fromNow(socket: TestSocket) {
  const start = socket.received.length;
  return <T extends ServerMessage>(check: (message: ServerMessage) => message is T) =>
    socket.next((m): m is T => socket.received.indexOf(m) >= start && check(m));
}
const names = (people: { name: string; isYou: boolean }[]) => people.map((p) => `${p.name}${p.isYou ? ' (you)' : ''}`);

async function namedPair() {
  const alice = await harness.signIn();
  const bob = await harness.signIn();
  await harness.name(alice.userId, 'Alice', 'Borrowes');
  await harness.name(bob.userId, 'Bob', 'Lendell');
  const { conversationId } = await harness.conversationOf(alice.userId, bob.userId);
  return { alice, bob, conversationId };
}

describe('presence', () => {
  it('shows the owners following a conversation who else views it and who is typing, by name, and nobody else', async () => {
    const { alice, bob, conversationId } = await namedPair();
    const mallory = await harness.signIn();
    const [aliceSocket, bobSocket, stranger] = await Promise.all([
      harness.socketFor(alice.cookie),
      harness.socketFor(bob.cookie),
      harness.socketFor(mallory.cookie),
    ]);
    await bobSocket.request({ type: 'subscribe', conversationId });
    await bobSocket.next(presenceOf(conversationId, (m) => m.viewers.length === 0));
    await aliceSocket.request({ type: 'subscribe', conversationId });
    const seenByBob = await bobSocket.next(presenceOf(conversationId, (m) => m.viewers.length === 1));
    expect(seenByBob).toMatchObject({ viewers: [{ name: 'Alice Borrowes', isYou: false }], typers: [] });
    // Alice is shown Bob, never herself.
    expect(names((await aliceSocket.next(presenceOf(conversationId, (m) => m.viewers.length === 1))).viewers)).toEqual(['Bob Lendell']);

    expect(await aliceSocket.request({ type: 'typing', conversationId })).toMatchObject({ type: 'ack' });
    const typing = await bobSocket.next(presenceOf(conversationId, (m) => m.typers.length === 1));
    expect(names(typing.typers)).toEqual(['Alice Borrowes']);
    // Typing runs out without a further signal; sending the message ends it at once.
    await fromNow(bobSocket)(presenceOf(conversationId, (m) => m.typers.length === 0 && m.viewers.length === 1));
    let next = fromNow(bobSocket);
    await aliceSocket.request({ type: 'typing', conversationId });
    await next(presenceOf(conversationId, (m) => m.typers.length === 1));
    next = fromNow(bobSocket);
    expect(await aliceSocket.request({ type: 'send_message', conversationId, content: 'Hello Bob' })).toMatchObject({ type: 'ack' });
    await next(presenceOf(conversationId, (m) => m.typers.length === 0));

    next = fromNow(bobSocket);
    expect(await aliceSocket.request({ type: 'unsubscribe', conversationId })).toMatchObject({ type: 'ack' });
    await next(presenceOf(conversationId, (m) => m.viewers.length === 0));

    // A stranger cannot follow it, so hears nothing of it, and cannot say they are typing in it.
    expect(await stranger.request({ type: 'subscribe', conversationId })).toMatchObject({ type: 'error' });
    expect(await stranger.request({ type: 'typing', conversationId })).toMatchObject({
      type: 'error',
      message: `Follow conversation ${conversationId} first (subscribe)`,
    });
    expect(stranger.received.filter((m) => m.type === 'presence')).toEqual([]);
  });

  it('shares viewers across gateway copies, and forgets those of a copy that stopped announcing them', async () => {
    const { alice, bob, conversationId } = await namedPair();
    const copy = await harness.anotherCopy();
    const elsewhere: TestSocket = await connect(copy.wsUrl, { cookie: alice.cookie, origin: copy.origin });
    try {
      const bobSocket = await harness.socketFor(bob.cookie);
      await bobSocket.request({ type: 'subscribe', conversationId });
      await elsewhere.request({ type: 'subscribe', conversationId });
      await bobSocket.next(presenceOf(conversationId, (m) => names(m.viewers).join() === 'Alice Borrowes'));

      // A copy that crashed sends no "left": its last announcement simply runs out.
      await harness.pool.query('select pg_notify($1, $2)', [
        PRESENCE_CHANNEL,
        JSON.stringify({
          kind: 'viewing',
          ttlMs: 400,
          entries: [{ socket: 'crashed-copy/1', conversationId, userId: bob.userId, sessionId: 'gone', name: 'Bob Lendell' }],
        }),
      ]);
      const withGhost = await bobSocket.next(presenceOf(conversationId, (m) => m.viewers.length === 2));
      expect(names(withGhost.viewers)).toEqual(['Alice Borrowes', 'Bob Lendell (you)']);
      await fromNow(bobSocket)(presenceOf(conversationId, (m) => names(m.viewers).join() === 'Alice Borrowes'));
      // Alice's copy keeps announcing her: she is still shown after several heartbeats.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const latest = bobSocket.received.filter((m): m is Presence => m.type === 'presence' && m.conversationId === conversationId).at(-1)!;
      expect(names(latest.viewers)).toEqual(['Alice Borrowes']);

      const gone = fromNow(bobSocket);
      await elsewhere.close();
      await gone(presenceOf(conversationId, (m) => m.viewers.length === 0));
    } finally {
      await elsewhere.close();
    }
  });
});

describe('control requests between two sessions of one account', () => {
  it('tells the session holding the side who asks for it; refuses a request when nobody else holds it', async () => {
    const { alice, bob, conversationId } = await namedPair();
    const aliceAgain = await harness.signIn(alice.deviceToken);
    expect(aliceAgain.userId).toBe(alice.userId);
    const [holder, asker, bobSocket] = await Promise.all([
      harness.socketFor(alice.cookie),
      harness.socketFor(aliceAgain.cookie),
      harness.socketFor(bob.cookie),
    ]);
    for (const socket of [holder, asker, bobSocket]) await socket.request({ type: 'subscribe', conversationId });

    expect(await asker.request({ type: 'request_control', conversationId })).toMatchObject({
      type: 'error',
      message: 'Nobody has taken over the borrower side (Brenda Borrower): take it over instead',
    });
    expect(await holder.request({ type: 'manual_override', conversationId, enabled: true })).toMatchObject({ type: 'ack' });
    expect(await holder.request({ type: 'request_control', conversationId })).toMatchObject({
      type: 'error',
      message: 'You already have control of the borrower side (Brenda Borrower) here',
    });
    // The other session sees its own account in the thread, as itself elsewhere.
    await asker.next(presenceOf(conversationId, (m) => names(m.viewers).join() === 'Alice Borrowes (you),Bob Lendell'));

    expect(await asker.request({ type: 'request_control', conversationId })).toMatchObject({ type: 'ack' });
    const asked = await holder.next((m) => m.type === 'control_requested');
    expect(asked).toMatchObject({ conversationId, byName: 'Alice Borrowes', bySessionId: aliceAgain.sessionId, isYou: true });
    // Bob's side is not in question: he is not told, nor is the asking session itself.
    await holder.request({ type: 'typing', conversationId });
    await bobSocket.next(presenceOf(conversationId, (m) => names(m.typers).join() === 'Alice Borrowes'));
    expect(bobSocket.received.some((m) => m.type === 'control_requested')).toBe(false);
    expect(asker.received.some((m) => m.type === 'control_requested')).toBe(false);
  });
});

describe('control requests between colleagues (docs/decisions/per-side-control.md)', () => {
  it('reaches only the session holding the side, across gateway copies; a decline tells the asker; another firm cannot ask', async () => {
    // Ada founded Harbour; Ben is its operator. The conversation is between Ben's borrower and Ada's lender.
    const ada = await harness.signIn();
    const ben = await harness.signIn();
    const benAgain = await harness.signIn(ben.deviceToken);
    const cy = await harness.signIn();
    await harness.name(ada.userId, 'Ada', 'Archer');
    await harness.name(ben.userId, 'Ben', 'Brooks');
    await harness.name(cy.userId, 'Cy', 'Crane');
    await harness.joinFirm(ben.userId, ada.userId);
    const { conversationId, aliceAgent: borrower } = await harness.conversationOf(ben.userId, ada.userId, {
      alice: ada.userId,
      bob: ada.userId,
    });
    const shared = await harness.conversationOf(ben.userId, cy.userId, { alice: ada.userId });

    const copy = await harness.anotherCopy();
    const adaSocket = await connect(copy.wsUrl, { cookie: ada.cookie, origin: copy.origin });
    const cySocket = await harness.socketFor(cy.cookie);
    try {
      const [benSocket, benElsewhere] = await Promise.all([harness.socketFor(ben.cookie), harness.socketFor(benAgain.cookie)]);
      for (const socket of [benSocket, benElsewhere, adaSocket]) await socket.request({ type: 'subscribe', conversationId });
      expect(await benSocket.request({ type: 'manual_override', conversationId, enabled: true, agentIds: [borrower] })).toMatchObject({
        type: 'ack',
      });
      // Ada (on another copy) asks for the borrower side: Ben's holding session is told, by her name; nobody else.
      expect(await adaSocket.request({ type: 'request_control', conversationId, agentId: borrower })).toMatchObject({ type: 'ack' });
      const asked = await benSocket.next((m) => m.type === 'control_requested');
      expect(asked).toMatchObject({ conversationId, agentId: borrower, byName: 'Ada Archer', bySessionId: ada.sessionId, isYou: false });

      // Ben declines: Ada is told, by his name, and still holds nothing.
      expect(
        await benSocket.request({ type: 'decline_control', conversationId, agentId: borrower, toSessionId: ada.sessionId }),
      ).toMatchObject({ type: 'ack' });
      expect(await adaSocket.next((m) => m.type === 'control_declined')).toMatchObject({
        conversationId,
        agentId: borrower,
        byName: 'Ben Brooks',
      });
      // Only the holder answers: Ada cannot decline (nor hand over) a side she does not hold.
      expect(
        await adaSocket.request({ type: 'decline_control', conversationId, agentId: borrower, toSessionId: ben.sessionId }),
      ).toMatchObject({ type: 'error', status: 403 });

      // She asks again and Ben hands it over: the side is hers, in the session that asked.
      // Waited for from before the request: the push to Ben may arrive before Ada's acknowledgement does.
      const askedAgain = fromNow(benSocket)(
        (m): m is Extract<ServerMessage, { type: 'control_requested' }> => m.type === 'control_requested',
      );
      await adaSocket.request({ type: 'request_control', conversationId, agentId: borrower });
      await askedAgain;
      expect(await benSocket.request({ type: 'hand_over', conversationId, agentId: borrower, toSessionId: ada.sessionId })).toMatchObject({
        type: 'ack',
      });
      const last = (await harness.store.readStream(streams.conversation(conversationId))).at(-1)!;
      expect(last.data).toMatchObject({
        agentId: borrower,
        isManualMode: true,
        byUserId: ada.userId,
        sessionId: ada.sessionId,
        handedOverBy: ben.userId,
      });

      // Ben's other session never heard of any of it, nor did Ada's firm's outsider.
      expect(benElsewhere.received.some((m) => m.type === 'control_requested' || m.type === 'control_declined')).toBe(false);

      // Cy (another firm) shares a conversation with Harbour's borrower: he may follow it, never ask for its side.
      await cySocket.request({ type: 'subscribe', conversationId: shared.conversationId });
      expect(
        await cySocket.request({ type: 'request_control', conversationId: shared.conversationId, agentId: shared.aliceAgent }),
      ).toMatchObject({
        type: 'error',
        status: 403,
        message: "The borrower side (Brenda Borrower) is another firm's: you can request control only of your own firm's sides",
      });
      expect(await cySocket.request({ type: 'subscribe', conversationId })).toMatchObject({ type: 'error' });
      expect(await cySocket.request({ type: 'request_control', conversationId, agentId: borrower })).toMatchObject({
        type: 'error',
        message: `Follow conversation ${conversationId} first (subscribe)`,
      });
    } finally {
      await adaSocket.close();
    }
  });
});
