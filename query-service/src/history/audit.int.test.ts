import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START, streams, type DomainEvent, type EventMetadata, type HistoryExport } from '@pf/events';
import { createLogger, linkEvents, openServiceContext, parseConfig, type OpenedContext } from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { queryMigrations } from '../index';
import { projectBatch } from '../projector/projector';
import { runAudit } from './audit';

/** The auditor's CLI as `npm run audit` runs it (argv in, lines and exit status out), against real PostgreSQL. */
describe('npm run audit', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  let dir: string;
  const conversationId = 4242;
  const stream = streams.conversation(conversationId);
  const metadata: EventMetadata = { actor: { kind: 'agent', agentId: 1 }, correlationId: 'c', causationId: null };

  async function audit(...argv: string[]): Promise<{ status: number; out: string }> {
    const lines: string[] = [];
    const status = await runAudit(argv, {
      store: context.storedEvents,
      pool: context.pool,
      print: (line) => lines.push(line),
      now: () => new Date('2026-03-01T12:00:00Z'),
    });
    return { status, out: lines.join('\n') };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    context = await openServiceContext(
      parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
      createLogger('warn', 'audit-test'),
      database.url,
      // The range export reads who deleted their account from the read models (audit-erasure.int.test.ts).
      queryMigrations,
    );
    dir = await mkdtemp(path.join(os.tmpdir(), 'pf-audit-'));
    const participants = [
      { agentId: 1, ownerId: 'u1', name: 'Amelia Hart', type: 'borrower' as const },
      { agentId: 2, ownerId: 'u2', name: 'Northgate', type: 'lender' as const },
    ];
    const events: DomainEvent[] = [
      { type: 'ConversationStarted', data: { conversationId, title: 'T', participants, matchId: null } },
      { type: 'MessageSent', data: { conversationId, messageId: 1, fromAgentId: 1, toAgentId: 2, content: 'Hello', isAutomated: true } },
      {
        type: 'OfferMade',
        data: {
          conversationId,
          offerId: 'o1',
          round: 1,
          fromAgentId: 2,
          toAgentId: 1,
          terms: { interestRate: 4.5, termYears: 25, loanAmount: 200_000, arrangementFee: 999 },
        },
      },
      {
        type: 'MessageSent',
        data: { conversationId, messageId: 2, fromAgentId: 2, toAgentId: 1, content: 'We offer 4.5%', isAutomated: true },
      },
    ];
    for (const event of events) await context.store.append(stream, [{ id: randomUUID(), ...event, metadata }], 'any');
    await context.store.append(streams.agent(1), [{ id: randomUUID(), type: 'AgentPaused', data: { agentId: 1 }, metadata }], 'any');
    await projectBatch(context.pool, await context.store.readAll(START, 1000));
  });
  afterAll(async () => {
    await context?.close();
    await database?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('explains its usage and exits 2 on wrong input', async () => {
    expect(await audit('verify')).toMatchObject({
      status: 2,
      out: expect.stringContaining('verify needs either --conversation N, --all or --file FILE') as unknown,
    });
    expect((await audit('verify', '--conversation', 'x')).out).toContain('--conversation must be a positive whole number, not "x"');
    expect((await audit('frobnicate')).status).toBe(2);
    expect((await audit('export', '--from', 'yesterday', '--to', 'today')).out).toContain('--from and --to as ISO times');
  });

  it('verifies a conversation and all streams, exiting 0 when intact', async () => {
    const one = await audit('verify', '--conversation', String(conversationId));
    expect(one.status).toBe(0);
    expect(one.out).toContain(`intact  ${stream}: 4 events, head 3`);
    const all = await audit('verify', '--all');
    expect(all).toMatchObject({ status: 0, out: expect.stringContaining('Verified 2 streams: every chain is intact.') as unknown });
  });

  it('exports a conversation (JSON with hashes, CSV) and a time range (JSON lines)', async () => {
    const json = JSON.parse((await audit('export', '--conversation', String(conversationId))).out) as HistoryExport;
    // The conversation is still under way, so its agents' events so far belong to its history.
    expect(json.events.map((e) => e.type)).toEqual(['ConversationStarted', 'MessageSent', 'OfferMade', 'MessageSent', 'AgentPaused']);
    expect(json.events.every((e) => /^[0-9a-f]{64}$/.test(String(e.hash)))).toBe(true);
    expect(json.verification.intact).toBe(true);
    const csv = (await audit('export', '--conversation', String(conversationId), '--format', 'csv')).out.split('\r\n');
    expect(csv).toHaveLength(4);
    const file = path.join(dir, 'range.jsonl');
    const range = await audit('export', '--from', '2000-01-01T00:00:00Z', '--to', '2999-01-01T00:00:00Z', '--out', file);
    expect(range.out).toContain('5 events recorded from 2000-01-01T00:00:00Z');
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { stream: string });
    expect(lines.map((e) => e.stream)).toEqual([stream, stream, stream, stream, 'agent-1']);
    expect((await audit('export', '--from', '2000-01-01T00:00:00Z', '--to', '2000-01-02T00:00:00Z')).out).toBe('');
  });

  it('signs a checkpoint, and catches a whole stream rewritten with fresh hashes that the chain alone cannot', async () => {
    expect((await audit('keygen', '--out-dir', dir)).status).toBe(0);
    const checkpointFile = path.join(dir, 'checkpoint.json');
    const signed = await audit('checkpoint', '--key', path.join(dir, 'audit-signing.key'), '--out', checkpointFile);
    expect(signed).toMatchObject({ status: 0, out: expect.stringContaining('Signed the heads of 2 streams') as unknown });
    const withCheckpoint = ['verify', '--all', '--checkpoint', checkpointFile, '--public-key', path.join(dir, 'audit-signing.pub')];
    expect((await audit(...withCheckpoint)).out).toContain('The store still holds the 2 heads signed at 2026-03-01T12:00:00.000Z');

    // An attacker with the database rewrites message 2 and re-hashes the stream from there, head included.
    const { pool } = context;
    await pool.query(
      `update events set data = jsonb_set(data, '{content}', '"We offer 6.5%"') where stream_name = $1 and stream_version = 3`,
      [stream],
    );
    const stored = await context.storedEvents.readStream(stream);
    const relinked = linkEvents(
      null,
      stored.map(({ hash: _h, previousHash: _p, ...event }) => event),
    );
    for (const event of relinked) {
      await pool.query('update events set hash = $3, previous_hash = $4 where stream_name = $1 and stream_version = $2', [
        stream,
        event.streamVersion,
        event.hash,
        event.previousHash,
      ]);
    }
    await pool.query('update streams set hash = $2 where stream_name = $1', [stream, relinked[relinked.length - 1]!.hash]);

    expect((await audit('verify', '--conversation', String(conversationId))).status).toBe(0);
    const caught = await audit(...withCheckpoint);
    expect(caught.status).toBe(1);
    expect(caught.out).toContain(
      `BROKEN  Event 3 of ${stream} no longer has the hash signed in the checkpoint of 2026-03-01T12:00:00.000Z`,
    );

    // A checkpoint edited after signing is refused.
    const forged = JSON.parse(await readFile(checkpointFile, 'utf8')) as { heads: { hash: string }[] };
    forged.heads[0]!.hash = relinked[relinked.length - 1]!.hash;
    const forgedFile = path.join(dir, 'forged.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(forgedFile, JSON.stringify(forged)));
    const refused = await audit('verify', '--all', '--checkpoint', forgedFile, '--public-key', path.join(dir, 'audit-signing.pub'));
    expect(refused).toMatchObject({
      status: 1,
      out: expect.stringContaining('is not signed by this key, or was changed after signing') as unknown,
    });
  });

  it('names a hand-altered event and exits 1', async () => {
    await context.pool.query(`update events set type = 'OfferAccepted' where stream_name = $1 and stream_version = 2`, [stream]);
    const result = await audit('verify', '--conversation', String(conversationId));
    expect(result.status).toBe(1);
    expect(result.out).toMatch(
      new RegExp(`BROKEN  ${stream}: version 2 at position \\d+:\\d+ \\(event [0-9a-f-]{36}\\): Event 2 \\(OfferAccepted\\) was altered`),
    );
    expect(result.out).toContain('Tampering found');
  });
});
