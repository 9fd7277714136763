import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { startDatabaseGate, type DatabaseGate } from './testing/database-gate';
import { testServerEnv } from './testing/server-env';
import type { ApiError, ServerMessage, AgentView } from '@pf/events';

/** Idempotency-Key on the real single node: the HTTP shell's plugin, rows in real PostgreSQL. */
describe('idempotent commands (Idempotency-Key)', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let db: pg.Pool;
  let alice: ApiClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url));
    db = new pg.Pool({ connectionString: database.url, max: 2 });
    alice = await ApiClient.signIn(server.url);
  });
  afterAll(async () => {
    await db?.end();
    await server?.close();
    await database?.drop();
  });

  const send = (client: ApiClient, method: string, path: string, body: unknown, key?: string) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        cookie: client.cookie,
        origin: server.url,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
  const count = async (sql: string, values: unknown[] = []) => Number((await db.query<{ n: number | string }>(sql, values)).rows[0]!.n);
  const agentsNamed = (name: string) =>
    count("select count(*) as n from events where type = 'AgentCreated' and data->>'name' = $1", [name]);

  it('answers a retry with the first answer (status, body, x-position) and stores nothing twice', async () => {
    const body = { name: 'Retried Borrower', type: 'borrower' };
    const first = await send(alice, 'POST', '/api/agents', body, 'create-retried-1');
    const second = await send(alice, 'POST', '/api/agents', body, 'create-retried-1');
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual(await first.json());
    expect(second.headers.get('x-position')).toBe(first.headers.get('x-position'));
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await agentsNamed('Retried Borrower')).toBe(1);
    // Without a key, the same request is a new command.
    await send(alice, 'POST', '/api/agents', body);
    expect(await agentsNamed('Retried Borrower')).toBe(2);
  });

  it('keeps one key per user: another user with the same key runs their own command', async () => {
    const bob = await ApiClient.signIn(server.url);
    const body = { name: 'Shared Key Lender', type: 'lender' };
    expect((await send(alice, 'POST', '/api/agents', body, 'same-key')).status).toBe(201);
    expect((await send(bob, 'POST', '/api/agents', body, 'same-key')).status).toBe(201);
    expect(await agentsNamed('Shared Key Lender')).toBe(2);
  });

  it('answers 422 naming the problem when a key is reused for a different request', async () => {
    expect((await send(alice, 'POST', '/api/agents', { name: 'First Use', type: 'lender' }, 'reused-key')).status).toBe(201);
    const reused = await send(alice, 'POST', '/api/agents', { name: 'Second Use', type: 'lender' }, 'reused-key');
    expect(reused.status).toBe(422);
    expect(((await reused.json()) as ApiError).message).toMatch(/^Idempotency-Key: "reused-key" was already used for a different request/);
    expect(await agentsNamed('Second Use')).toBe(0);
    const badKey = await send(alice, 'POST', '/api/agents', { name: 'x', type: 'lender' }, 'a key with spaces');
    expect(badKey.status).toBe(400);
    expect(((await badKey.json()) as ApiError).message).toMatch(
      /^idempotency-key: Idempotency-Key must be 1 to 255 visible ASCII characters/,
    );
  });

  it('carries out two concurrent identical requests once: the second waits for the first and answers the same', async () => {
    const body = { name: 'Concurrent Broker', type: 'broker' };
    const answers = await Promise.all([
      send(alice, 'POST', '/api/agents', body, 'concurrent-1'),
      send(alice, 'POST', '/api/agents', body, 'concurrent-1'),
    ]);
    const [a, b] = await Promise.all(
      answers.map(async (r) => ({ status: r.status, body: (await r.json()) as AgentView, position: r.headers.get('x-position') })),
    );
    expect(a).toEqual(b);
    expect(a!.status).toBe(201);
    expect(await agentsNamed('Concurrent Broker')).toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
  });

  it('keeps 4xx answers of the handler, not those of the schema, and forgets keys once expired', async () => {
    // Refused by the route's schema before the command runs: nothing is kept, and a retry is refused alike.
    const invalid = await send(alice, 'POST', '/api/agents', { name: '', type: 'lender' }, 'invalid-1');
    const again = await send(alice, 'POST', '/api/agents', { name: '', type: 'lender' }, 'invalid-1');
    expect([invalid.status, again.status]).toEqual([400, 400]);
    expect(await again.json()).toEqual(await invalid.json());
    // Refused by the command itself (no such agent): the answer is kept and given again.
    const missing = await send(alice, 'PUT', '/api/agents/987654', { isActive: false }, 'missing-1');
    const missingAgain = await send(alice, 'PUT', '/api/agents/987654', { isActive: false }, 'missing-1');
    expect([missing.status, missingAgain.status]).toEqual([404, 404]);
    expect(missingAgain.headers.get('idempotent-replayed')).toBe('true');

    const body = { name: 'Expiring Lender', type: 'lender' };
    expect((await send(alice, 'POST', '/api/agents', body, 'expiring-1')).status).toBe(201);
    await db.query("update idempotency_keys set expires_at = now() - interval '1 second' where key = 'expiring-1'");
    const afterExpiry = await send(alice, 'POST', '/api/agents', body, 'expiring-1');
    expect(afterExpiry.headers.get('idempotent-replayed')).toBeNull();
    expect(await agentsNamed('Expiring Lender')).toBe(2);
  });

  // docs/decisions/idempotency-keys.md "What it costs": a first request still unanswered after 30 seconds is taken to
  // have died with its process; a repeat then handles it afresh (rather than waiting for it, then 409).
  it('handles afresh a repeat whose first request has been pending for over 30 seconds', async () => {
    const me = (await alice.get<{ id: string }>('/api/auth/user')).body;
    const body = JSON.stringify({ name: 'After An Abandoned Claim', type: 'lender' });
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    await db.query(
      `insert into idempotency_keys (user_id, key, fingerprint, expires_at, created_at, claim_id)
       values ($1, 'abandoned-key', $2, now() + interval '1 hour', now() - interval '31 seconds', gen_random_uuid())`,
      [me.id, sha256(`POST /api/agents\n${sha256(body)}`)],
    );
    const repeat = await send(alice, 'POST', '/api/agents', JSON.parse(body), 'abandoned-key');
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotent-replayed')).toBeNull();
    expect(await agentsNamed('After An Abandoned Claim')).toBe(1);
  });

  it('carries out a socket command sent twice with one requestId once, acknowledging both', async () => {
    const bob = await ApiClient.signIn(server.url);
    await bob.post('/api/seed-demo'); // without automation: two conversations under way
    const [conversation] = (await bob.get('/api/conversations')).body as { id: number }[];
    expect((await bob.patch(`/api/conversations/${conversation!.id}`, { isManualMode: true })).status).toBe(200);
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: bob.cookie, origin: server.url } });
    const acks: unknown[] = [];
    const done = new Promise<void>((resolve) =>
      ws.on('message', (data) => {
        const message = JSON.parse((data as Buffer).toString()) as ServerMessage;
        if ('requestId' in message && message.requestId === 'r1') acks.push(message);
        if (acks.length === 2) resolve();
      }),
    );
    await new Promise((resolve) => ws.once('open', resolve));
    const frame = JSON.stringify({
      type: 'send_message',
      requestId: 'r1',
      conversationId: conversation!.id,
      content: 'Sent once, retried once',
    });
    ws.send(frame);
    ws.send(frame);
    await done;
    ws.close();
    expect(acks).toHaveLength(2);
    // Both acknowledged, neither refused: the command ran (once) through the HTTP shell's hooks, injected in-process.
    expect(acks).toEqual([expect.objectContaining({ type: 'ack' }), expect.objectContaining({ type: 'ack' })]);
    expect(acks[0]).toMatchObject({ type: 'ack' });
    expect(acks[1]).toEqual(acks[0]);
    expect(
      await count("select count(*) as n from events where type = 'MessageSent' and data->>'content' = 'Sent once, retried once'"),
    ).toBe(1);
  });

  // docs/decisions/idempotency-keys.md "The console's side": a socket write carries its key too, kept per person, so
  // the same command sent again on a new socket (a reconnect after its answer was lost) is carried out once.
  it('carries out a socket command sent again on a new socket with the same idempotencyKey once', async () => {
    const carol = await ApiClient.signIn(server.url);
    await carol.post('/api/seed-demo');
    const [conversation] = (await carol.get('/api/conversations')).body as { id: number }[];
    expect((await carol.patch(`/api/conversations/${conversation!.id}`, { isManualMode: true })).status).toBe(200);
    const sendOnNewSocket = async () => {
      const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: carol.cookie, origin: server.url } });
      const answer = new Promise<ServerMessage>((resolve) =>
        ws.on('message', (data) => {
          const message = JSON.parse((data as Buffer).toString()) as ServerMessage;
          if ('requestId' in message && message.requestId === 'r1') resolve(message);
        }),
      );
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(
        JSON.stringify({
          type: 'send_message',
          requestId: 'r1',
          idempotencyKey: 'console-write-1',
          conversationId: conversation!.id,
          content: 'Sent again after a reconnect',
        }),
      );
      const got = await answer;
      ws.close();
      return got;
    };
    const first = await sendOnNewSocket();
    const again = await sendOnNewSocket();
    expect(first).toMatchObject({ type: 'ack' });
    expect(again).toEqual(first);
    expect(
      await count("select count(*) as n from events where type = 'MessageSent' and data->>'content' = 'Sent again after a reconnect'"),
    ).toBe(1);
  });

  // The console keys a socket write as the HTTP command it stands for (httpCommandOf): with the socket down, the same
  // message is posted over HTTP with the socket's key, and the server, which carried out the first, answers it again.
  it('answers a message sent on the socket, posted again over HTTP with the same key, without posting it twice', async () => {
    const dan = await ApiClient.signIn(server.url);
    await dan.post('/api/seed-demo');
    const [conversation] = (await dan.get('/api/conversations')).body as { id: number }[];
    expect((await dan.patch(`/api/conversations/${conversation!.id}`, { isManualMode: true })).status).toBe(200);
    const content = 'Sent on the socket, posted again over HTTP';
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ws`, { headers: { cookie: dan.cookie, origin: server.url } });
    const answer = new Promise<ServerMessage>((resolve) =>
      ws.on('message', (data) => {
        const message = JSON.parse((data as Buffer).toString()) as ServerMessage;
        if ('requestId' in message && message.requestId === 'r1') resolve(message);
      }),
    );
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(
      JSON.stringify({
        type: 'send_message',
        requestId: 'r1',
        idempotencyKey: 'console-write-2',
        conversationId: conversation!.id,
        content,
      }),
    );
    expect(await answer).toMatchObject({ type: 'ack' });
    ws.close();
    const posted = await dan.request(
      'POST',
      `/api/conversations/${conversation!.id}/messages`,
      { content },
      { 'idempotency-key': 'console-write-2' },
    );
    expect([posted.status, posted.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(await count(`select count(*) as n from events where type = 'MessageSent' and data->>'content' = '${content}'`)).toBe(1);
  });
});

/**
 * A key whose command failed because the database could not be reached (docs/decisions/idempotency-keys.md):
 * freed as soon as the database answers again, so the client's retry runs the command rather than waiting for
 * the key to be taken for abandoned (409 meanwhile). The outage is a real one as the node sees it: every
 * connection to the real PostgreSQL dropped at a chosen step of the command (testing/database-gate.ts).
 */
describe('an Idempotency-Key through a database outage', () => {
  let database: TestDatabase;
  let gate: DatabaseGate;
  let server: RunningServer;
  let db: pg.Pool;
  let alice: ApiClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    gate = await startDatabaseGate(database.url);
    server = await startSingleNode(testServerEnv(gate.url));
    db = new pg.Pool({ connectionString: database.url, max: 2 });
    alice = await ApiClient.signIn(server.url);
  });
  afterAll(async () => {
    await db?.end();
    await server?.close();
    await gate?.close();
    await database?.drop();
  });

  const create = (name: string, key: string) =>
    fetch(`${server.url}/api/agents`, {
      method: 'POST',
      headers: { cookie: alice.cookie, origin: server.url, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ name, type: 'borrower' }),
    });
  const agentsNamed = async (name: string) =>
    Number(
      (await db.query<{ n: string }>("select count(*) as n from events where type = 'AgentCreated' and data->>'name' = $1", [name]))
        .rows[0]!.n,
    );

  it('frees a key whose command failed for want of the database: the retry once it is back runs the command, once', async () => {
    // The database goes at the command's first query, after the key was claimed: 503.
    const cut = gate.shutAfter("nextval('agent_ids')");
    const failed = await create('Outage Borrower', 'outage-during-command');
    await cut;
    expect(failed.status).toBe(503);
    gate.open();
    const retry = await create('Outage Borrower', 'outage-during-command');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await agentsNamed('Outage Borrower')).toBe(1);
    // And its answer is now the key's: a second retry gets it again.
    const again = await create('Outage Borrower', 'outage-during-command');
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
  });

  it('frees a key whose claim was stored but whose answer the database never sent', async () => {
    const cut = gate.shutAfter('insert into idempotency_keys', { passOn: true });
    const failed = await create('Lost Claim Borrower', 'outage-during-claim');
    await cut;
    expect(failed.status).toBe(503);
    gate.open();
    const retry = await create('Lost Claim Borrower', 'outage-during-claim');
    expect(retry.status).toBe(201);
    expect(await agentsNamed('Lost Claim Borrower')).toBe(1);
  });
});
