import type pg from 'pg';
import type { Migration, RecordedEvent } from '@pf/infra';
import type { ReadModel } from '../../projection-kit/read-model';
import { firmOf as firmOfParty, streams, type DomainEvent } from '@pf/events';
import type { BulkTarget } from '../../projection-kit/bulk-fill';
import { textArrayLiteral, writeRows } from '../../projection-kit/fold-batch';

const FEED_STREAMS: BulkTarget = { table: 'rm_feed_streams', columns: ['stream', 'firms', 'people'], key: [0], whenStored: 'nothing' };
const FEED_AGENTS: BulkTarget = { table: 'rm_feed_agents', columns: ['agent_id', 'owner_id'], key: [0], whenStored: 'nothing' };

const migrations: Migration[] = [
  {
    name: 'query-service/event-feed/001-streams',
    sql: `
      -- What the event feed needs to answer a firm its own events (docs/event-feed.md): the firms of each
      -- stream (fixed when the stream begins), each agent's owner (who wrote its messages), and who deleted
      -- their account (their personal data leaves the feed).
      create table rm_feed_streams (
        stream text primary key,
        firms text[] not null
      );
      create table rm_feed_agents (
        agent_id bigint primary key,
        owner_id text not null
      );
      create table rm_feed_deleted_people (
        user_id text primary key
      );
    `,
  },
  {
    name: 'query-service/event-feed/002-deleted-at',
    sql: `alter table rm_feed_deleted_people add column deleted_at timestamptz not null default now();`,
  },
  {
    // The people behind each stream (its agents' owners), fixed like its firms: what a stream says is emptied in
    // the feed and the history once one of them deletes their account (docs/decisions/hash-chain.md "Erasure").
    name: 'query-service/event-feed/003-stream-people',
    sql: `alter table rm_feed_streams add column people text[] not null default '{}';`,
  },
];

const unique = (firms: readonly string[]) => [...new Set(firms)];

interface Behind {
  firms: string[];
  people: string[];
}

/**
 * The firms a stream belongs to, and the people behind it (its agents' owners), decided by the event that begins
 * it: an agent's; a conversation's or a deal's parties'; a match's by its agents; a match run's by its agent; a
 * document's by its deal. `behindOf` answers streams begun earlier (this batch's or the table's). Null: the event
 * begins nothing. A person's own stream (user-…) belongs to no firm: its settings are theirs, not a job's.
 */
function streamBehind(event: DomainEvent, behindOf: (stream: string) => Behind): Behind | null {
  const of = (parties: readonly { ownerId: string; firmId?: string | undefined | null }[]) => ({
    firms: unique(parties.map(firmOfParty)),
    people: unique(parties.map((party) => party.ownerId)),
  });
  const union = (streams: readonly string[]) => ({
    firms: unique(streams.flatMap((stream) => behindOf(stream).firms)),
    people: unique(streams.flatMap((stream) => behindOf(stream).people)),
  });
  switch (event.type) {
    case 'AgentCreated':
      return of([event.data]);
    case 'ConversationStarted':
      return of(event.data.participants);
    case 'DealOpened':
      return of([event.data.borrower, event.data.lender, ...(event.data.broker ? [event.data.broker] : [])]);
    case 'MatchFound':
      return union(
        [event.data.borrowerAgentId, event.data.lenderAgentId, ...(event.data.brokerAgentId ? [event.data.brokerAgentId] : [])].map(
          streams.agent,
        ),
      );
    case 'MatchRequested':
      return union([streams.agent(event.data.agentId)]);
    case 'DocumentUploaded':
      return union([streams.deal(event.data.dealId)]);
    default:
      return null;
  }
}

async function project(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  const begun = new Map<string, Behind>();
  const owners: [number, string][] = [];
  const deleted: [string, Date][] = [];
  // The stored streams the batch's events name, read in one query rather than one per event (the rows stand
  // still until the batch's own are written below, so the answers are those a query at each event would give).
  const named = new Set<string>();
  const none: Behind = { firms: [], people: [] };
  // Synchronous, as every event of the batch goes through it twice (an async call per event was a promise each).
  for (const event of batch) streamBehind(event, (stream) => (named.add(stream), none));
  const stored = new Map<string, Behind>();
  if (named.size > 0) {
    const { rows } = await client.query<{ stream: string; firms: string[]; people: string[] }>(
      'select stream, firms, people from rm_feed_streams where stream = any($1::text[])',
      [[...named]],
    );
    for (const row of rows) stored.set(row.stream, { firms: row.firms, people: row.people });
  }
  const behindOf = (stream: string): Behind => begun.get(stream) ?? stored.get(stream) ?? none;
  for (const event of batch) {
    if (event.type === 'AgentCreated') owners.push([event.data.agentId, event.data.ownerId]);
    if (event.type === 'AccountDeleted') deleted.push([event.data.userId, event.recordedAt]);
    if (begun.has(event.stream)) continue;
    const behind = streamBehind(event, behindOf);
    if (behind) begun.set(event.stream, behind);
  }
  await writeRows(
    client,
    [...begun].map(([stream, { firms, people }]) => [stream, textArrayLiteral(firms), textArrayLiteral(people)]),
    ['text', 'text', 'text'],
    (v) =>
      `insert into rm_feed_streams (stream, firms, people) select v1, v2::text[], v3::text[] from ${v} on conflict (stream) do nothing`,
    FEED_STREAMS,
  );
  await writeRows(
    client,
    owners,
    ['bigint', 'text'],
    (v) => `insert into rm_feed_agents (agent_id, owner_id) select v1, v2 from ${v} on conflict (agent_id) do nothing`,
    FEED_AGENTS,
  );
  if (deleted.length > 0) {
    await client.query(
      'insert into rm_feed_deleted_people (user_id, deleted_at) select * from unnest($1::text[], $2::timestamptz[]) on conflict do nothing',
      [deleted.map(([id]) => id), deleted.map(([, at]) => at)],
    );
  }
}

export const eventFeedReadModel: ReadModel = {
  name: 'event-feed',
  tables: ['rm_feed_streams', 'rm_feed_agents', 'rm_feed_deleted_people'],
  migrations,
  project,
};
