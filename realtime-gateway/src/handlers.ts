import { createHash } from 'node:crypto';
import {
  mayWrite,
  roleRefusal,
  comparePositions,
  formatPosition,
  httpCommandOf,
  parsePosition,
  USER_MESSAGES,
  type ClientMessage,
  type Position,
} from '@pf/events';
import {
  WRITE_ACTIONS,
  type CommandClient,
  type CommandRequest,
  type CommandResponse,
  type EventStore,
  type Logger,
  type StoredEvent,
} from '@pf/infra';
import { commandAnswer, FALLBACKS } from './command-answer';
import type { Connection } from './connection';
import { declineControl, requestControl } from './control-requests';
import { deliveriesFor } from './deliveries';
import { readEvent, type Follower } from './follower';
import type { Presence } from './presence';
import { canSeeConversation } from './view-index';

export interface HandlerContext {
  readonly follower: Follower;
  readonly presence: Presence;
  readonly store: EventStore<StoredEvent>;
  readonly commands: CommandClient;
  readonly log: Logger;
  /** How long a subscribe to an id not (yet) known waits for this copy to catch up with the store. */
  readonly catchUpWaitMs: number;
}

const REPLAY_BATCH = 500;

/**
 * Roles at the gateway too (docs/decisions/firms-and-visibility.md): an auditor's send or takeover is refused
 * here with the API's 403 and words, before anything is forwarded (the command-service refuses it as well).
 */
function mayWriteHere(connection: Connection, requestId: string | undefined): boolean {
  if (mayWrite(connection.user.role)) return true;
  connection.send({ type: 'error', requestId: requestId ?? null, message: roleRefusal(connection.user.role, WRITE_ACTIONS), status: 403 });
  return false;
}

export async function handleMessage(ctx: HandlerContext, connection: Connection, message: ClientMessage): Promise<void> {
  switch (message.type) {
    case 'send_message': {
      if (!mayWriteHere(connection, message.requestId)) return;
      const sent = await command(
        ctx,
        connection,
        message.requestId,
        FALLBACKS.send_message,
        httpCommandOf(message),
        message.idempotencyKey,
      );
      // Said and sent: no longer typing.
      if (sent && connection.subscriptions.has(message.conversationId))
        await ctx.presence.typing(connection, message.conversationId, false);
      return;
    }
    case 'manual_override':
      if (!mayWriteHere(connection, message.requestId)) return;
      await command(ctx, connection, message.requestId, FALLBACKS.manual_override, httpCommandOf(message), message.idempotencyKey);
      return;
    case 'hand_over':
      if (!mayWriteHere(connection, message.requestId)) return;
      if (!following(connection, message.conversationId, message.requestId)) return;
      await command(ctx, connection, message.requestId, FALLBACKS.hand_over, httpCommandOf(message), message.idempotencyKey);
      return;
    case 'decline_control':
      return answerControl(connection, message.conversationId, message.requestId, ctx, () =>
        declineControl(ctx.store, ctx.presence, connection, message.conversationId, message.agentId, message.toSessionId),
      );
    case 'subscribe':
      return subscribe(ctx, connection, message.conversationId, message.requestId);
    case 'unsubscribe':
      if (connection.subscriptions.delete(message.conversationId)) await ctx.presence.left(connection, message.conversationId);
      return ack(ctx, connection, message.requestId);
    case 'typing':
      if (!following(connection, message.conversationId, message.requestId)) return;
      await ctx.presence.typing(connection, message.conversationId, true);
      return ack(ctx, connection, message.requestId);
    case 'request_control':
      if (!mayWriteHere(connection, message.requestId)) return;
      return answerControl(connection, message.conversationId, message.requestId, ctx, () =>
        requestControl(ctx.store, ctx.presence, connection, message.conversationId, message.agentId),
      );
    case 'resume':
      return resume(ctx, connection, parsePosition(message.afterPosition), message.requestId);
    default: {
      const unhandled: never = message;
      return unhandled;
    }
  }
}

function ack(ctx: HandlerContext, connection: Connection, requestId: string | undefined): void {
  if (requestId !== undefined) {
    connection.send({ type: 'ack', requestId, position: formatPosition(ctx.follower.position) });
  }
}

/** Typing and control requests are for a conversation this socket follows (and so may see). */
function following(connection: Connection, conversationId: number, requestId: string | undefined): boolean {
  if (connection.subscriptions.has(conversationId)) return true;
  connection.send({ type: 'error', requestId: requestId ?? null, message: `Follow conversation ${conversationId} first (subscribe)` });
  return false;
}

/** A request for control, or a decline, answered on the socket: an ack, or the refusal in words. */
async function answerControl(
  connection: Connection,
  conversationId: number,
  requestId: string | undefined,
  ctx: HandlerContext,
  decide: () => Promise<{ ok: true } | { ok: false; message: string; status?: number }>,
): Promise<void> {
  if (!following(connection, conversationId, requestId)) return;
  const answer = await decide();
  if (answer.ok) return ack(ctx, connection, requestId);
  connection.send({
    type: 'error',
    requestId: requestId ?? null,
    message: answer.message,
    ...(answer.status ? { status: answer.status } : {}),
  });
}

/** Forwards a command to the command-service; true when it was carried out. */
async function command(
  ctx: HandlerContext,
  connection: Connection,
  requestId: string | undefined,
  fallback: string,
  request: Omit<CommandRequest, 'cookie'>,
  clientKey?: string,
): Promise<boolean> {
  let response: CommandResponse | null = null;
  try {
    // The client's own key holds across sockets (a retry after a reconnect is carried out once); without one, a
    // frame sent twice with one requestId on this socket (a client unsure whether it arrived) is carried out once.
    const idempotencyKey =
      clientKey ?? (requestId === undefined ? undefined : `ws:${connection.id}:${createHash('sha256').update(requestId).digest('hex')}`);
    response = await ctx.commands.execute({ ...request, cookie: connection.cookie, ...(idempotencyKey ? { idempotencyKey } : {}) });
    if (response.statusCode >= 500) ctx.log.warn({ url: request.url, status: response.statusCode }, 'command failed');
  } catch (error) {
    ctx.log.warn({ err: error, url: request.url }, 'command-service unreachable');
  }
  const answer = commandAnswer(requestId, response, fallback);
  if (answer) connection.send(answer);
  // The session ended (revoked or expired): the socket's credentials are gone too.
  if (response?.statusCode === 401) connection.socket.close(4401, 'Session ended');
  return response !== null && response.statusCode >= 200 && response.statusCode < 300;
}

async function subscribe(
  ctx: HandlerContext,
  connection: Connection,
  conversationId: number,
  requestId: string | undefined,
): Promise<void> {
  const { follower } = ctx;
  const deadline = Date.now() + ctx.catchUpWaitMs;
  // The index keeps what live pushes used lately: a conversation not in it is loaded as applied by now.
  await follower.needConversation(conversationId);
  let visible = canSeeConversation(follower.index, conversationId, connection.user.firmId);
  if (!visible) {
    // A conversation created a moment ago may be stored but not yet applied by this copy.
    const head = await ctx.store.headPosition();
    await follower.waitFor(head, ctx.catchUpWaitMs);
    await follower.needConversation(conversationId);
    // Or committed but not yet readable: global reads wait for every older transaction in the cluster to
    // end, so the head above may not include it yet. An id this copy has never seen gets until the deadline.
    while (!follower.index.conversations.has(conversationId) && Date.now() < deadline) {
      const { commit, prepare } = follower.position;
      await follower.waitFor({ commit, prepare: prepare + 1n }, deadline - Date.now());
      await follower.needConversation(conversationId);
    }
    visible = canSeeConversation(follower.index, conversationId, connection.user.firmId);
  }
  if (!visible) {
    connection.send({ type: 'error', requestId: requestId ?? null, message: USER_MESSAGES.conversationNotFound });
    return;
  }
  connection.subscriptions.add(conversationId);
  ack(ctx, connection, requestId);
  await ctx.presence.viewing(connection, conversationId);
}

/**
 * Replays what this socket may see after `after`, up to what the follower has applied, while live
 * pushes wait; then the held live pushes follow. Replayed and live pushes meet at one position, so
 * nothing is missed and nothing is sent twice. Follow conversations (subscribe) before resuming.
 */
async function resume(ctx: HandlerContext, connection: Connection, after: Position, requestId: string | undefined) {
  const { follower } = ctx;
  connection.beginResume();
  const until = follower.position;
  const floor = comparePositions(after, until) > 0 ? after : until;
  let replayedTo = after;
  try {
    while (comparePositions(replayedTo, until) < 0 && connection.isOpen) {
      const batch = await ctx.store.readAll(replayedTo, REPLAY_BATCH);
      const upToLive = batch.filter((recorded) => comparePositions(recorded.position, until) <= 0);
      const events = upToLive.map((recorded) => readEvent(recorded));
      // What the replayed events name, loaded into the index (as applied by now) and kept there while they are replayed.
      const release = await follower.need(events.filter((event) => event !== null));
      try {
        for (const [i, recorded] of upToLive.entries()) {
          const event = events[i];
          if (!event) continue;
          for (const delivery of deliveriesFor(follower.index, event, recorded.recordedAt.toISOString())) {
            if (connection.wants(delivery))
              connection.replay(recorded.position, delivery.body({ userId: connection.user.id, firmId: connection.user.firmId }));
          }
        }
      } finally {
        release();
      }
      if (upToLive.length === 0) break;
      replayedTo = upToLive[upToLive.length - 1]!.position;
      await connection.drained();
    }
    if (requestId !== undefined) connection.send({ type: 'ack', requestId, position: formatPosition(floor) });
    connection.endResume(floor);
  } catch (error) {
    ctx.log.warn({ err: error }, 'resume could not read the event store');
    connection.send({
      type: 'error',
      requestId: requestId ?? null,
      message: `Could not replay the events after ${formatPosition(replayedTo)}; reload the page`,
    });
    connection.endResume(replayedTo);
  }
}
