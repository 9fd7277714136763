import type pg from 'pg';
import { readStoredEvent, type FeedEnvelope } from '@pf/events';
import { toEnvelope, type StoredEvent } from '@pf/infra';
import { eraseDeleted, redactDeleted, type PeopleOfBatch } from './redact';

/**
 * Who is behind a batch's events and who of them has deleted their account, from the event feed's read model
 * (rm_feed_agents, rm_feed_deleted_people), the accounts table and `peopleOfStream` (rm_feed_streams' people of
 * the streams read). The read model must have applied the batch (the caller waits for the projector first).
 */
async function peopleOfBatch(
  pool: pg.Pool,
  events: readonly StoredEvent[],
  peopleOfStream: ReadonlyMap<string, readonly string[]>,
): Promise<PeopleOfBatch> {
  const agentIds = new Set<number>();
  const people = new Set<string>([...peopleOfStream.values()].flat());
  for (const recorded of events) {
    const event = readStoredEvent(recorded);
    if (recorded.metadata.actor.kind === 'user') people.add(recorded.metadata.actor.userId);
    if (event.type === 'AgentCreated') people.add(event.data.ownerId);
    if (event.type === 'AgentUpdated') agentIds.add(event.data.agentId);
    if (event.type === 'MessageSent') agentIds.add(event.data.fromAgentId);
    if (event.type === 'ConversationStarted') for (const p of event.data.participants) people.add(p.ownerId);
    if (event.type === 'DealOpened')
      for (const p of [event.data.borrower, event.data.lender, event.data.broker]) if (p) people.add(p.ownerId);
    if (event.type === 'DocumentUploaded') people.add(event.data.uploadedBy.userId);
  }
  const owners = new Map<number, string>();
  if (agentIds.size > 0) {
    const found = await pool.query<{ agent_id: string; owner_id: string }>(
      'select agent_id, owner_id from rm_feed_agents where agent_id = any($1::bigint[])',
      [[...agentIds]],
    );
    for (const row of found.rows) {
      owners.set(Number(row.agent_id), row.owner_id);
      people.add(row.owner_id);
    }
  }
  // Deleted: recorded by the read model (AccountDeleted), or already without an account row. Account deletion
  // removes the row before it answers, while its AccountDeleted may not be readable yet (an older transaction
  // still open holds the log's visible end back), so the row is what makes "from then on" hold at once.
  const deleted = await pool.query<{ user_id: string }>(
    `select person as user_id from unnest($1::text[]) as person
     where person in (select user_id from rm_feed_deleted_people) or person not in (select id::text from users)`,
    [[...people]],
  );
  return {
    deleted: new Set(deleted.rows.map((row) => row.user_id)),
    ownerOf: (agentId: number) => owners.get(agentId),
    peopleOf: (stream: string) => peopleOfStream.get(stream) ?? [],
  };
}

/**
 * One batch of the store as a firm's token reads it: the events of streams the firm takes part in (the
 * event-feed read model's rm_feed_streams), of the types asked for, each with a deleted person's personal
 * data removed. The read model must have applied the batch (the caller waits for the projector first).
 */
export async function feedBatch(
  pool: pg.Pool,
  batch: readonly StoredEvent[],
  firmId: string,
  types: ReadonlySet<string> | null,
): Promise<FeedEnvelope[]> {
  const wanted = types ? batch.filter((event) => types.has(event.type)) : batch;
  if (wanted.length === 0) return [];
  const streams = [...new Set(wanted.map((event) => event.stream))];
  const visible = await pool.query<{ stream: string; people: string[] }>(
    'select stream, people from rm_feed_streams where stream = any($1::text[]) and $2 = any(firms)',
    [streams, firmId],
  );
  const ours = new Set(visible.rows.map((row) => row.stream));
  const events = wanted.filter((event) => ours.has(event.stream));
  if (events.length === 0) return [];
  const people = await peopleOfBatch(pool, events, new Map(visible.rows.map((row) => [row.stream, row.people])));
  return events.map((event) => redactDeleted(toEnvelope(event), people));
}

/** A stored event as a reader outside the product is handed it, the fields emptied (none: as stored), and the event as stored. */
export interface ErasedEvent {
  readonly event: StoredEvent;
  readonly redacted: readonly string[];
  readonly stored: StoredEvent;
}

/**
 * Every event of a batch with a deleted person's personal data removed by the feed's own rule (`eraseDeleted`),
 * whichever firm's: what the audit's range export and the Kafka relay hand out (docs/decisions/hash-chain.md
 * "Erasure"). The stored event is not changed. The read model must have applied the batch.
 */
export async function erasedBatch(pool: pg.Pool, batch: readonly StoredEvent[]): Promise<ErasedEvent[]> {
  if (batch.length === 0) return [];
  const streams = [...new Set(batch.map((event) => event.stream))];
  const behind = await pool.query<{ stream: string; people: string[] }>(
    'select stream, people from rm_feed_streams where stream = any($1::text[])',
    [streams],
  );
  const people = await peopleOfBatch(pool, batch, new Map(behind.rows.map((row) => [row.stream, row.people])));
  return batch.map((event) => {
    const erased = eraseDeleted(event, people);
    return erased
      ? { event: { ...event, data: erased.data, metadata: erased.metadata }, redacted: erased.redacted, stored: event }
      : { event, redacted: [], stored: event };
  });
}
