import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { streams, type EventMetadata } from '@pf/events';
import { eventStoreDatabase } from '../testing/event-store-database';
import { verifyAllStreams, verifyStreams } from './verify';
import { contentDigest, linkHash } from './hash-chain';

const metadata: EventMetadata = { actor: { kind: 'user', userId: 'u', sessionId: 's' }, correlationId: 'c', causationId: null };

/**
 * The verifier against rows changed by hand in PostgreSQL (what someone with database access could do):
 * each case stores a fresh stream of five events, tampers with it in SQL, and expects the verdict to name
 * the event (its version, type and position) and what happened to it.
 */
// docs/decisions/hash-chain.md: a change made with a database client (an offer's data, who acted, a removed or reordered event) is named.
describe('hash chain verifier against rows tampered with in PostgreSQL', () => {
  const db = eventStoreDatabase(5);

  async function fiveEvents(): Promise<string> {
    const stream = streams.deal(randomUUID());
    const event = (n: number) => ({
      id: randomUUID(),
      type: n === 0 ? 'ConversationStarted' : 'MessageSent',
      data: { n, content: `message ${n}` },
      metadata,
    });
    await db.store.append(stream, [event(0), event(1)], 'no_stream');
    await db.store.append(stream, [event(2)], 1);
    await db.store.append(stream, [event(3), event(4)], 2);
    return stream;
  }

  const verify = async (stream: string) => (await verifyStreams(db.store, [stream]))[0]!;
  const positionOf = async (stream: string, version: number) => {
    const row = (
      await db.pool.query<{ tx: string; position: string }>(
        'select transaction_id::text as tx, position from events where stream_name = $1 and stream_version = $2',
        [stream, version],
      )
    ).rows[0]!;
    return `${row.tx}:${row.position}`;
  };

  it('computes the same link in SQL as in the adapters (so an append function can chain under its lock)', async () => {
    const stream = await fiveEvents();
    const [first, second] = await db.store.readStream(stream);
    const inSql = await db.pool.query<{ hash: string }>(
      `select encode(sha256(convert_to(coalesce($1::text, '') || E'\\n' || $2::bigint || E'\\n' || $3::text, 'UTF8')), 'hex') as hash`,
      [first!.hash, 1, contentDigest(second!)],
    );
    expect(inSql.rows[0]!.hash).toBe(second!.hash);
    expect(linkHash(first!.hash!, 1, contentDigest(second!))).toBe(second!.hash);
  });

  it('says an untouched stream is intact', async () => {
    const stream = await fiveEvents();
    expect(await verify(stream)).toMatchObject({ intact: true, events: 5, headVersion: 4, firstBroken: null });
  });

  it('names an event whose data was altered', async () => {
    const stream = await fiveEvents();
    const position = await positionOf(stream, 2);
    await db.pool.query(
      `update events set data = jsonb_set(data, '{content}', '"I never said that"') where stream_name = $1 and stream_version = 2`,
      [stream],
    );
    const verdict = await verify(stream);
    expect(verdict.intact).toBe(false);
    expect(verdict.firstBroken).toMatchObject({ streamVersion: 2, type: 'MessageSent', position });
    expect(verdict.firstBroken!.reason).toBe('Event 2 (MessageSent) was altered: its stored contents no longer give its hash');
  });

  it('names an event whose metadata (who acted) or time was altered', async () => {
    const stream = await fiveEvents();
    await db.pool.query(
      `update events set metadata = jsonb_set(metadata, '{actor,userId}', '"someone-else"') where stream_name = $1 and stream_version = 1`,
      [stream],
    );
    expect((await verify(stream)).firstBroken).toMatchObject({ streamVersion: 1 });
    const other = await fiveEvents();
    await db.pool.query(`update events set recorded_at = recorded_at - interval '1 hour' where stream_name = $1 and stream_version = 3`, [
      other,
    ]);
    expect((await verify(other)).firstBroken).toMatchObject({ streamVersion: 3 });
  });

  it('names a deleted event, in the middle and at the end of the stream', async () => {
    const stream = await fiveEvents();
    await db.pool.query('delete from events where stream_name = $1 and stream_version = 2', [stream]);
    const verdict = await verify(stream);
    expect(verdict.firstBroken).toMatchObject({ streamVersion: 2, type: 'MessageSent' });
    expect(verdict.firstBroken!.reason).toBe('The event at version 2 is missing: version 3 follows version 1');

    const tail = await fiveEvents();
    await db.pool.query('delete from events where stream_name = $1 and stream_version = 4', [tail]);
    expect((await verify(tail)).firstBroken!.reason).toContain('Events 4 to 4 are missing');
  });

  it('names events that were reordered', async () => {
    const stream = await fiveEvents();
    // Three steps: the (stream, version) key is checked row by row.
    await db.pool.query(
      `begin;
       update events set stream_version = -1 where stream_name = '${stream}' and stream_version = 1;
       update events set stream_version = 1 where stream_name = '${stream}' and stream_version = 2;
       update events set stream_version = 2 where stream_name = '${stream}' and stream_version = -1;
       commit;`,
    );
    const verdict = await verify(stream);
    expect(verdict.firstBroken).toMatchObject({ streamVersion: 1 });
    expect(verdict.firstBroken!.reason).toBe('Event 1 (MessageSent) is out of order: it was chained after version 2, not after version 0');
  });

  it('finds the one broken stream among all of them', async () => {
    const stream = await fiveEvents();
    await db.pool.query(`update events set type = 'OfferMade' where stream_name = $1 and stream_version = 0`, [stream]);
    const all = await verifyAllStreams(db.store, 7);
    const broken = all.filter((verdict) => !verdict.intact);
    // Earlier cases left their own tampered streams; this one is among them, named at version 0.
    expect(broken.find((verdict) => verdict.stream === stream)?.firstBroken).toMatchObject({ streamVersion: 0, type: 'OfferMade' });
    expect(all.filter((verdict) => verdict.intact).length).toBeGreaterThan(0);
  });
});
