import type pg from 'pg';
import { domainEvent } from '@pf/events';
import { contentDigest } from '@pf/infra';
import { eraseDeleted, type PeopleOfBatch } from '../read-models/event-feed/redact';
import type { HistoryRecord, LoadedHistory } from './load-history';

/**
 * Who of the conversation's parties has deleted their account: Delete Account removes the account row before it
 * answers, so a party without one is gone from that answer on.
 */
async function deletedAmong(pool: pg.Pool, people: readonly string[]): Promise<Set<string>> {
  const { rows } = await pool.query<{ user_id: string }>(
    'select person as user_id from unnest($1::text[]) as person where person not in (select id::text from users)',
    [people],
  );
  return new Set(rows.map((row) => row.user_id));
}

/** Each loaded history's erased copy for the people gone when it was made: a scrub step asks for it again. */
const erasedCopies = new WeakMap<LoadedHistory, { deleted: string; copy: LoadedHistory }>();

/**
 * The history as a reader may have it once a party has deleted their account (docs/decisions/hash-chain.md
 * "Erasure"): each event's words erased by the feed's own rule (`eraseDeleted`), each such event carrying the
 * content digest of what was stored, so its link in the hash chain is still checked (verify-export.ts). The
 * stored events are not changed; the loaded copy (and its cache) is not either.
 */
export async function withoutDeleted(pool: pg.Pool, history: LoadedHistory): Promise<LoadedHistory> {
  const { participants } = history.started;
  const deleted = await deletedAmong(
    pool,
    participants.map((p) => p.ownerId),
  );
  if (deleted.size === 0) return history;
  const key = [...deleted].sort().join(' ');
  const kept = erasedCopies.get(history);
  if (kept?.deleted === key) return kept.copy;
  const copy = erasedCopy(history, deleted);
  erasedCopies.set(history, { deleted: key, copy });
  return copy;
}

function erasedCopy(history: LoadedHistory, deleted: ReadonlySet<string>): LoadedHistory {
  const { participants } = history.started;
  const ownerOf = (agentId: number) => participants.find((p) => p.agentId === agentId)?.ownerId;
  const people: PeopleOfBatch = {
    deleted,
    ownerOf,
    peopleOf: (stream) => {
      const agent = /^agent-(\d+)$/.exec(stream);
      const owner = agent ? ownerOf(Number(agent[1])) : undefined;
      return agent ? (owner ? [owner] : []) : participants.map((p) => p.ownerId);
    },
  };
  const records = history.records.map((record): HistoryRecord => {
    const erased = eraseDeleted(record.recorded, people);
    if (!erased) return record;
    const parsed = domainEvent.safeParse({ type: record.recorded.type, data: erased.data });
    return {
      recorded: { ...record.recorded, data: erased.data, metadata: erased.metadata },
      event: parsed.success ? parsed.data : null,
      storedDigest: record.storedDigest ?? contentDigest(record.recorded),
    };
  });
  const started = {
    ...history.started,
    title: '',
    participants: participants.map((p) => (deleted.has(p.ownerId) ? { ...p, name: '' } : p)),
  };
  return { ...history, started, records };
}
