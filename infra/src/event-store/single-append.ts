import type pg from 'pg';
import { ConcurrencyConflict, Invalid } from '../errors';
import { linkEvents } from './hash-chain';
import type { AppendResult, ExpectedVersion, NewEvent } from './port';

const describe = (expected: ExpectedVersion) => (typeof expected === 'number' ? String(expected) : expected);
const UNIQUE_VIOLATION = '23505';

/**
 * One append in a transaction of its own: the path an append takes when its group cannot decide it (an id
 * twice in one group, an id already stored: a retry, or a duplicate racing in from another stream; data
 * PostgreSQL refuses), so every such case answers exactly as a lone append always has.
 */
export async function appendAlone(
  pool: pg.Pool,
  stream: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<AppendResult> {
  const client = await pool.connect();
  try {
    const result = await appendIn(client, stream, events, expected);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    // Two copies of the same append raced: the loser finds the winner's events.
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      const existing = await findExisting(pool, stream, events);
      if (existing) return existing;
    }
    throw error;
  } finally {
    client.release();
  }
}

/** Four round trips: begin with the stream lock, check (and read the head's hash), write (events, stream version and head hash), commit. */
async function appendIn(
  client: pg.PoolClient,
  stream: string,
  events: readonly NewEvent[],
  expected: ExpectedVersion,
): Promise<AppendResult> {
  // The stream lock comes before anything that assigns a transaction id: a writer waiting for it
  // gets its id only after the previous writer committed, so global (transaction id) order agrees
  // with stream order. A row lock would take the id before waiting.
  await client.query(`begin; select pg_advisory_xact_lock(hashtextextended(${client.escapeLiteral(stream)}, 0))`);
  const ids = events.map((event) => event.id);
  // The head's hash is read under the stream lock, so two appends never chain to the same predecessor.
  const checked = await client.query<{ version: number | null; head_hash: string | null; now: Date; seen: boolean }>(
    `select s.version, s.hash as head_hash, date_trunc('milliseconds', now()) as now,
            exists (select 1 from events where event_id = any($2::uuid[])) as seen
     from (select 1) one left join streams s on s.stream_name = $1`,
    [stream, ids],
  );
  const { version, head_hash: headHash, now, seen } = checked.rows[0]!;
  if (seen) {
    const existing = await findExisting(client, stream, events);
    if (existing) return existing;
  }
  const current = version ?? -1;
  const ok = expected === 'any' || (expected === 'no_stream' ? current === -1 : current === expected);
  if (!ok) {
    throw new ConcurrencyConflict(stream, describe(expected), current === -1 ? 'no stream' : String(current));
  }

  const next = current + events.length;
  const linked = linkEvents(
    headHash,
    events.map((event, index) => ({ ...event, stream, streamVersion: current + 1 + index, recordedAt: now })),
  );
  const written = await client.query<{ position: number; tx: string }>(
    `with inserted as (
       insert into events (event_id, stream_name, stream_version, type, data, metadata, recorded_at, hash, previous_hash)
       select id, $1, $2::bigint + ordinality, type, data, metadata, $8, hash, previous_hash
       from unnest($3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[], $9::text[], $10::text[])
         with ordinality as e(id, type, data, metadata, hash, previous_hash)
       order by ordinality
       returning position, transaction_id
     ), versioned as (
       insert into streams (stream_name, version, hash) values ($1, $7, $11)
       on conflict (stream_name) do update set version = excluded.version, hash = excluded.hash
     )
     select position, transaction_id::text as tx from inserted order by position desc limit 1`,
    [
      stream,
      current,
      ids,
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.data)),
      events.map((event) => JSON.stringify(event.metadata)),
      next,
      now,
      linked.map((event) => event.hash),
      linked.map((event) => event.previousHash),
      linked[linked.length - 1]!.hash,
    ],
  );
  const last = written.rows[0]!;
  return {
    nextExpectedVersion: next,
    position: { commit: BigInt(last.tx), prepare: BigInt(last.position) },
    recordedAt: now,
  };
}

/** A retried append: if every id is already stored in this stream, answer as the first append did. */
export async function findExisting(db: pg.PoolClient | pg.Pool, stream: string, events: readonly NewEvent[]): Promise<AppendResult | null> {
  const found = await db.query<{ stream_name: string; stream_version: number; position: number; tx: string; recorded_at: Date }>(
    `select stream_name, stream_version, position, transaction_id::text as tx, recorded_at from events
     where event_id = any($1::uuid[]) order by position`,
    [events.map((event) => event.id)],
  );
  if (found.rowCount === 0) return null;
  if (found.rowCount !== events.length || found.rows.some((row) => row.stream_name !== stream)) {
    throw new Invalid(`Some of these event ids are already stored with other events; an append is retried whole`);
  }
  const last = found.rows[found.rows.length - 1]!;
  return {
    nextExpectedVersion: last.stream_version,
    position: { commit: BigInt(last.tx), prepare: BigInt(last.position) },
    recordedAt: last.recorded_at,
  };
}
