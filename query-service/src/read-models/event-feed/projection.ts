import type pg from 'pg';
import type { Migration, RecordedEvent } from '@pf/infra';
import type { ReadModel } from '../read-model';
import { firmOf as firmOfParty, type DomainEvent } from '@pf/events';
import type { BulkTarget } from '../bulk-fill';
import { domainEventOf, textArrayLiteral, writeRows } from '../fold-batch';

const FEED_STREAMS: BulkTarget = { table: 'rm_feed_streams', columns: ['stream', 'firms'], key: [0], whenStored: 'nothing' };
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
];

const agentStream = (agentId: number) => `agent-${agentId}`;

const unique = (firms: readonly string[]) => [...new Set(firms)];

/**
 * The firms a stream belongs to, decided by the event that begins it: an agent's firm; the firms of a
 * conversation's or a deal's parties; a match's by its agents; a match run's by its agent; a document's by its
 * deal. `firmsOf` answers streams begun earlier (this batch's or the table's). Null: the event begins nothing.
 * A person's own stream (user-…) belongs to no firm: its settings are theirs, not a job's.
 */
function streamFirms(event: DomainEvent, firmsOf: (stream: string) => readonly string[]): string[] | null {
  switch (event.type) {
    case 'AgentCreated':
      return [firmOfParty(event.data)];
    case 'ConversationStarted':
      return unique(event.data.participants.map(firmOfParty));
    case 'DealOpened':
      return unique([event.data.borrower, event.data.lender, ...(event.data.broker ? [event.data.broker] : [])].map(firmOfParty));
    case 'MatchFound': {
      const agents = [
        event.data.borrowerAgentId,
        event.data.lenderAgentId,
        ...(event.data.brokerAgentId ? [event.data.brokerAgentId] : []),
      ];
      const firms: string[] = [];
      for (const agentId of agents) firms.push(...firmsOf(agentStream(agentId)));
      return unique(firms);
    }
    case 'MatchRequested':
      return [...firmsOf(agentStream(event.data.agentId))];
    case 'DocumentUploaded':
      return [...firmsOf(`deal-${event.data.dealId}`)];
    default:
      return null;
  }
}

async function project(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  const begun = new Map<string, string[]>();
  const owners: [number, string][] = [];
  const deleted: [string, Date][] = [];
  // The stored streams the batch's events name, read in one query rather than one per event (the rows stand
  // still until the batch's own are written below, so the answers are those a query at each event would give).
  const named = new Set<string>();
  // Synchronous, as every event of the batch goes through it twice (an async call per event was a promise each).
  for (const recorded of batch) streamFirms(domainEventOf(recorded), (stream) => (named.add(stream), []));
  const stored = new Map<string, readonly string[]>();
  if (named.size > 0) {
    const { rows } = await client.query<{ stream: string; firms: string[] }>(
      'select stream, firms from rm_feed_streams where stream = any($1::text[])',
      [[...named]],
    );
    for (const row of rows) stored.set(row.stream, row.firms);
  }
  const firmsOf = (stream: string): readonly string[] => begun.get(stream) ?? stored.get(stream) ?? [];
  for (const recorded of batch) {
    const event = domainEventOf(recorded);
    if (event.type === 'AgentCreated') owners.push([event.data.agentId, event.data.ownerId]);
    if (event.type === 'AccountDeleted') deleted.push([event.data.userId, recorded.recordedAt]);
    if (begun.has(recorded.stream)) continue;
    const firms = streamFirms(event, firmsOf);
    if (firms) begun.set(recorded.stream, firms);
  }
  await writeRows(
    client,
    [...begun].map(([stream, firms]) => [stream, textArrayLiteral(firms)]),
    ['text', 'text'],
    (v) => `insert into rm_feed_streams (stream, firms) select v1, v2::text[] from ${v} on conflict (stream) do nothing`,
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
