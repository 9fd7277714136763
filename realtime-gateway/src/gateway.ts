import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { isDatabaseUnavailable, metrics, siteRules, UNAVAILABLE_MESSAGE, type CommandClient, type ServiceContext } from '@pf/infra';
import { Connection } from './connection';
import { Follower } from './follower';
import { handleMessage, type HandlerContext } from './handlers';
import { parseIncoming } from './incoming';
import { Presence } from './presence';
import { typingListener } from './typing-listener';
import { checkHandshake, refuse } from './upgrade';
import { canSeeConversation } from './view-index';

export interface GatewayOptions {
  readonly path?: string;
  /** Keep-alive: a ping every interval; a socket that has not answered the previous one is dropped. */
  readonly pingIntervalMs?: number;
  readonly maxBufferedBytes?: number;
  readonly maxMessageBytes?: number;
  /** Incoming messages per socket: a burst, refilled per second. */
  readonly burst?: number;
  readonly perSecond?: number;
  readonly catchUpWaitMs?: number;
  /** How long a new socket's live pushes wait for a resume (a reconnecting console sends it at once). */
  readonly resumeWindowMs?: number;
  /** Presence: how often this copy re-announces who follows what (an announcement lasts three of these). */
  readonly presenceHeartbeatMs?: number;
  /** How long a person is shown typing after their composer's last typing message. */
  readonly typingShownMs?: number;
  /**
   * Entries the index keeps in each of its maps besides the conversations sockets follow (GATEWAY_INDEX_ENTRIES;
   * docs/decisions/bounded-restart.md); what leaves is loaded again from the store when an event needs it.
   */
  readonly indexEntries?: number;
}

export interface RealtimeGateway {
  /** Resolves once the gateway has caught up with the stored events (sockets wait for it). */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

export function attachRealtimeGateway(
  server: http.Server,
  ctx: ServiceContext & { commands: CommandClient },
  options: GatewayOptions = {},
): RealtimeGateway {
  const path = options.path ?? '/ws';
  const limits = {
    maxBufferedBytes: options.maxBufferedBytes ?? MiB,
    burst: options.burst ?? 20,
    perSecond: options.perSecond ?? 20,
  };
  const log = ctx.log.child({ service: 'realtime-gateway' });
  // The read models' participants tell it a deleted person's conversations; the rest it loads from the store.
  const follower = new Follower(ctx.storedEvents, log, {
    indexEntries: options.indexEntries ?? ctx.config.GATEWAY_INDEX_ENTRIES,
    readModels: ctx.pool,
  });
  const following = ctx.supervisor.run(follower.spec());
  const ready = following.caughtUp;
  const presence = new Presence(
    ctx.pool,
    ctx.sessions,
    follower,
    log,
    {
      heartbeatMs: options.presenceHeartbeatMs ?? 10_000,
      typingMs: options.typingShownMs ?? 5000,
    },
    randomUUID(),
  );
  const presenceListening = ctx.supervisor.run(presence.listener());
  presence.start();
  const handlers: HandlerContext = {
    follower,
    presence,
    store: ctx.storedEvents,
    commands: ctx.commands,
    log,
    catchUpWaitMs: options.catchUpWaitMs ?? 5000,
  };
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? 64 * 1024,
    perMessageDeflate: false,
  });

  const typing = ctx.supervisor.run(
    typingListener(ctx.pool, log, (signal) => {
      for (const connection of follower.connections) {
        if (
          connection.subscriptions.has(signal.conversationId) &&
          canSeeConversation(follower.index, signal.conversationId, connection.user.firmId)
        ) {
          connection.send({ type: 'typing', ...signal });
        }
      }
    }),
  );

  const onMessage = (connection: Connection, data: RawData, isBinary: boolean) => {
    if (!connection.limiter.take(Date.now())) {
      const incoming = parseIncoming(data as Buffer, isBinary);
      const requestId = incoming.ok ? (incoming.message.requestId ?? null) : incoming.requestId;
      connection.send({
        type: 'error',
        requestId,
        message: `Too many messages: at most ${limits.burst} at once and ${limits.perSecond} a second`,
      });
      return;
    }
    connection.queue = connection.queue.then(async () => {
      const incoming = parseIncoming(data as Buffer, isBinary);
      if (!incoming.ok) {
        connection.send({ type: 'error', requestId: incoming.requestId, message: incoming.problem });
        return;
      }
      try {
        await handleMessage(handlers, connection, incoming.message);
      } catch (error) {
        const outage = isDatabaseUnavailable(error);
        if (!outage) log.error({ err: error, type: incoming.message.type }, 'socket message failed');
        const message = outage ? UNAVAILABLE_MESSAGE : 'Something went wrong';
        connection.send({ type: 'error', requestId: incoming.message.requestId ?? null, message });
      }
    });
  };

  const onConnection = (socket: WebSocket, connection: Connection) => {
    follower.add(connection);
    metrics.socketsOpen.inc();
    setTimeout(() => connection.endOpeningHold(), options.resumeWindowMs ?? 250).unref();
    socket.on('pong', () => (connection.alive = true));
    socket.on('message', (data, isBinary) => onMessage(connection, data, isBinary));
    socket.on('error', (error) => log.debug({ err: error }, 'socket error'));
    socket.on('close', () => {
      metrics.socketsOpen.dec();
      follower.remove(connection);
      presence.closed(connection);
    });
  };

  const rules = siteRules(ctx.config);
  const onUpgrade = async (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== path) {
      // Other upgrade handlers may own other paths; alone, we answer rather than leave it hanging.
      if (server.listenerCount('upgrade') === 1) refuse(socket, 404, 'Not found');
      return;
    }
    socket.on('error', () => socket.destroy());
    try {
      const handshake = await checkHandshake(request, rules, ctx.sessions);
      if (!handshake.ok) return refuse(socket, handshake.status, handshake.message);
      await ready;
      if (socket.destroyed) return;
      wss.handleUpgrade(request, socket, head, (ws) => {
        onConnection(ws, new Connection(ws, handshake.user, handshake.cookie, handshake.token, limits));
      });
    } catch (error) {
      if (!isDatabaseUnavailable(error)) log.error({ err: error }, 'socket upgrade failed');
      refuse(socket, 503, 'The realtime gateway is not available; try again');
    }
  };
  const upgradeListener = (request: http.IncomingMessage, socket: Duplex, head: Buffer) => void onUpgrade(request, socket, head);
  server.on('upgrade', upgradeListener);

  const keepAlive = setInterval(() => void tick(), options.pingIntervalMs ?? 30_000);
  keepAlive.unref();
  /** Drops sockets that missed a pong, and those whose session was revoked or expired since. */
  const tick = async () => {
    const connections = follower.connections;
    for (const connection of connections) {
      if (!connection.alive) connection.socket.terminate();
      else {
        connection.alive = false;
        connection.socket.ping();
      }
    }
    const tokens = new Set(connections.map((connection) => connection.sessionToken));
    const ended = new Set<string>();
    for (const token of tokens) {
      const user = await ctx.sessions.findUser(token, { touch: false }).catch(() => undefined);
      if (user === null) ended.add(token);
    }
    for (const connection of connections) {
      if (ended.has(connection.sessionToken)) connection.socket.close(4401, 'Session ended');
    }
  };

  return {
    ready,
    async close() {
      clearInterval(keepAlive);
      server.off('upgrade', upgradeListener);
      for (const connection of follower.connections) connection.socket.close(1001, 'Server shutting down');
      // Give browsers a moment to answer the close; then cut whoever has not.
      const closed = new Promise<void>((resolve) => wss.close(() => resolve()));
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      for (const connection of follower.connections) connection.socket.terminate();
      presence.stop();
      await Promise.all([following.stop(), typing.stop(), presenceListening.stop()]);
      follower.close();
    },
  };
}
