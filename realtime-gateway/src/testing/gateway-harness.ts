import {
  createHttpServer,
  createLogger,
  openServiceContext,
  parseConfig,
  PostgresEventStore,
  readingTheContract,
  SESSION_COOKIE,
} from '@pf/infra';
import { createTestDatabase } from '@pf/infra/testing';
import { attachRealtimeGateway, type GatewayOptions } from '../index';
import { appendingCommandClient, seedConversation } from './appending-command-client';
import { connect, type TestSocket } from './socket-client';

export type Harness = Awaited<ReturnType<typeof startHarness>>;

/**
 * The gateway on a real Fastify server over real PostgreSQL (a database of its own), with commands
 * going to the appending test double instead of the command-service.
 */
export async function startHarness(options: GatewayOptions = {}) {
  const db = await createTestDatabase('pf_gateway');
  // Sessions are looked up every time (no cache), so a revoked session is seen at the next keep-alive tick.
  const config = parseConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', SESSION_TTL_HOURS: '1', SESSION_CACHE_MS: '0' });
  const log = createLogger('silent');
  const context = await openServiceContext(config, log, db.url, []);
  const { pool, store, sessions } = context;
  const app = await createHttpServer(config, log);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const origin = `http://127.0.0.1:${port}`;
  const wsUrl = `ws://127.0.0.1:${port}/ws`;
  const gateway = attachRealtimeGateway(
    app.server,
    { ...context, commands: appendingCommandClient(store, sessions) },
    { pingIntervalMs: 200, catchUpWaitMs: 5000, ...options },
  );
  await gateway.ready;
  const copies: (() => Promise<void>)[] = [];
  const open: TestSocket[] = [];
  let nextId = 100;

  return {
    pool,
    store,
    sessions,
    origin,
    wsUrl,
    /** A new account, or (with a device token) another session of the account that device signed in to. */
    async signIn(device?: string) {
      const { token, user, deviceToken } = await sessions.signInGuest('vitest', device);
      return { cookie: `${SESSION_COOKIE}=${token}`, token, userId: user.id, sessionId: user.sessionId, deviceToken };
    },
    /** Sets a person's profile name, as Settings would. */
    async name(userId: string, firstName: string, lastName: string) {
      await pool.query('update users set first_name = $2, last_name = $3 where id = $1', [userId, firstName, lastName]);
    },
    /** Puts a person in another's firm (a firm's id is its founder's user id), as accepting an invitation would. */
    async joinFirm(userId: string, firmId: string, role: 'admin' | 'operator' | 'auditor' = 'operator') {
      await pool.query('update users set firm_id = $2, firm_role = $3 where id = $1', [userId, firmId, role]);
    },
    async socketFor(cookie: string, socketOptions: { autoPong?: boolean } = {}) {
      const socket = await connect(wsUrl, { cookie, origin }, socketOptions);
      open.push(socket);
      return socket;
    },
    /** A conversation between a borrower of Alice's and a lender of Bob's (of the firms given, else their own). */
    async conversationOf(aliceId: string, bobId: string, firms: { alice?: string; bob?: string } = {}) {
      const conversationId = ++nextId;
      const aliceAgent = ++nextId;
      const bobAgent = ++nextId;
      await seedConversation(store, conversationId, [
        { agentId: aliceAgent, ownerId: aliceId, firmId: firms.alice ?? aliceId, name: 'Brenda Borrower', type: 'borrower' },
        { agentId: bobAgent, ownerId: bobId, firmId: firms.bob ?? bobId, name: 'Larry Lender', type: 'lender' },
      ]);
      return { conversationId, aliceAgent, bobAgent };
    },
    /** Another gateway copy on its own port over the same database: copies share nothing in memory. */
    async anotherCopy() {
      const other = await createHttpServer(config, log);
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherStored = new PostgresEventStore(pool, db.url);
      const otherStore = readingTheContract(otherStored);
      const copy = attachRealtimeGateway(
        other.server,
        {
          config,
          log,
          pool,
          store: otherStore,
          storedEvents: otherStored,
          sessions,
          supervisor: context.supervisor,
          commands: appendingCommandClient(otherStore, sessions),
        },
        options,
      );
      await copy.ready;
      const { port: otherPort } = other.server.address() as { port: number };
      copies.push(async () => {
        await copy.close();
        await other.close();
        await otherStore.close();
      });
      return { origin: `http://127.0.0.1:${otherPort}`, wsUrl: `ws://127.0.0.1:${otherPort}/ws` };
    },
    async close() {
      await Promise.all(open.map((socket) => socket.close()));
      for (const closeCopy of copies) await closeCopy();
      await gateway.close();
      await app.close();
      await context.close();
      await db.drop();
    },
  };
}
