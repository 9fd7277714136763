import type pg from 'pg';
import { ConcurrencyConflict } from '../errors';
import type { QueuedAppend } from './group-commit';
import { contentDigest } from './hash-chain';
import type { AppendResult, ExpectedVersion } from './port';

const describe = (expected: ExpectedVersion) => (typeof expected === 'number' ? String(expected) : expected);

/** What became of one member of a group. */
export type Settled =
  | { readonly kind: 'written'; readonly member: QueuedAppend; readonly result: AppendResult }
  /** Its expected version did not hold: a conflict, or a retried append whose first try was stored. */
  | { readonly kind: 'conflict'; readonly member: QueuedAppend; readonly error: ConcurrencyConflict }
  /** Something a group cannot decide for it (an id twice, data JSON cannot write): it goes on its own. */
  | { readonly kind: 'alone'; readonly member: QueuedAppend };

interface Row {
  member: number;
  outcome: 'written' | 'conflict';
  version: number | null;
  tx: string | null;
  pos: number | null;
}

/**
 * A whole group of appends in one statement, so one round trip and one commit (append-function.ts does the
 * locking, the checks, the inserts and the chain links under the locks). The events' content digests
 * (hash-chain.ts) are computed here, before the statement and outside any lock, with the time the group is
 * sent as every event's recorded time (whole milliseconds, as the chain hashes it). Throws on any failure:
 * the statement is its own transaction, so nothing of the group is then stored.
 */
export async function writeGroup(db: pg.Pool | pg.ClientBase, group: readonly QueuedAppend[]): Promise<Settled[]> {
  const recordedAt = new Date();
  const sent: QueuedAppend[] = [];
  const settled = new Map<QueuedAppend, Settled>();
  const ids = new Set<string>();
  const members: unknown[] = [];
  for (const member of group) {
    const prepared = prepare(member, recordedAt, ids);
    if (!prepared) {
      settled.set(member, { kind: 'alone', member });
      continue;
    }
    member.events.forEach((event) => ids.add(event.id.toLowerCase()));
    sent.push(member);
    members.push(prepared);
  }
  if (sent.length > 0) {
    const streams = [...new Set(sent.map((member) => member.stream))].sort();
    const { rows } = await db.query<Row>(
      'select member, outcome, version, tx, pos from event_store_append_group($1::text[], $2::jsonb, $3::timestamptz)',
      [streams, JSON.stringify(members), recordedAt.toISOString()],
    );
    for (const row of rows) {
      const member = sent[row.member - 1]!;
      if (row.outcome === 'written') {
        const result = {
          nextExpectedVersion: Number(row.version),
          position: { commit: BigInt(row.tx!), prepare: BigInt(row.pos!) },
          recordedAt,
        };
        settled.set(member, { kind: 'written', member, result });
      } else {
        const current = Number(row.version);
        const error = new ConcurrencyConflict(member.stream, describe(member.expected), current === -1 ? 'no stream' : String(current));
        settled.set(member, { kind: 'conflict', member, error });
      }
    }
  }
  return group.map((member) => {
    const outcome = settled.get(member);
    if (!outcome) throw new Error(`The group append gave no outcome for an append to ${member.stream}`);
    return outcome;
  });
}

/**
 * A member as the statement takes it, or null when it must go on its own: an id twice (in it, or already in
 * the group), or what JSON cannot write (undefined data, a bigint, a cycle), which then fails for it alone
 * exactly as a lone append fails, never for the whole group.
 */
function prepare(member: QueuedAppend, recordedAt: Date, groupIds: ReadonlySet<string>): unknown {
  const memberIds = member.events.map((event) => event.id.toLowerCase());
  if (new Set(memberIds).size !== memberIds.length || memberIds.some((id) => groupIds.has(id))) return null;
  try {
    const events = member.events.map((event) => {
      if (hasNoJson(event.data) || hasNoJson(event.metadata)) throw new Error('not JSON');
      const digest = contentDigest({ ...event, stream: member.stream, recordedAt });
      return { id: event.id, type: event.type, data: event.data, metadata: event.metadata, digest };
    });
    return { stream: member.stream, expected: String(member.expected), events };
  } catch {
    return null;
  }
}

/**
 * Whether JSON has no text for `value` (undefined, a function, a symbol, or a toJSON giving one of them). An
 * object without toJSON always has one, so it is not written out here only to be looked at: a cycle or a
 * BigInt in it is refused by the digest (hash-chain.ts canonicalJson) just as JSON.stringify refuses it.
 */
function hasNoJson(value: unknown): boolean {
  if (typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON !== 'function') return false;
  return JSON.stringify(value) === undefined;
}
