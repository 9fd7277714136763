import type pg from 'pg';
import { DELETED_AGENT_NAME as DELETED_AGENT, erasedTitle } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { ReadModel } from '../../projection-kit/read-model';
import { scrubDoc, type Scrub } from './scrub-doc';

/** What stands where a deleted person's words were. */
const REMOVED = 'Removed: a party to this conversation deleted their account';
/** The boards kept as JSON documents: each holds the names (and a deal's address) of the agents it is about. */
const DOC_TABLES = ['rm_deal_board', 'rm_match_board', 'rm_document_board', 'rm_lead_board'] as const;

const idOf = (data: unknown, key: string): string | null => {
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'number' || typeof value === 'string' ? String(value) : null;
};

/**
 * Erasure in the read models (docs/decisions/hash-chain.md "Erasure"): once a person deletes their account, the
 * rows other firms keep of conversations, deals and matches with their agents lose what named them or what they
 * wrote: the agents' names, the conversation's title, the engine's messages and theirs, a deal's address, and
 * every notification that quoted any of it. Runs after every other read model in the same transaction: at
 * AccountDeleted it sweeps every row of theirs; at any later event of such a conversation, deal or match it
 * scrubs what that event wrote. Figures, statuses and the other parties' own words stay.
 */
/**
 * The simulation's broken-rule test turns this off to show that the simulation catches a deleted person's words
 * left in what other firms read (docs/simulation.md); nothing else touches it.
 */
export const erasureRule = { enforced: true };

async function project(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  if (!erasureRule.enforced) return;
  const sweep = batch.some((event) => event.type === 'AccountDeleted');
  const touched = { conversations: new Set<string>(), docs: new Set<string>() };
  for (const { data } of batch) {
    for (const key of ['conversationId', 'agreedInConversationId']) {
      const id = idOf(data, key);
      if (id) touched.conversations.add(id);
    }
    for (const key of ['dealId', 'matchId', 'documentId']) {
      const id = idOf(data, key);
      if (id) touched.docs.add(id);
    }
  }
  if (!sweep && touched.conversations.size + touched.docs.size === 0) return;
  const gone = (
    await client.query<{ agent_id: string }>(
      'select agent_id from rm_feed_agents where owner_id in (select user_id from rm_feed_deleted_people)',
    )
  ).rows.map((row) => Number(row.agent_id));
  if (gone.length === 0) return;
  // What named them or was theirs, collected before it goes, to be taken out of the notifications that quote it.
  const quoted = new Map<string, string>();
  const quote = (text: string, replacement: string) => {
    if (text.trim().length > 3 && text !== DELETED_AGENT && text !== REMOVED) quoted.set(text, replacement);
  };
  // Their agents stay in rm_agents (deleted), as matches and deals name their firms; what they wrote of them goes.
  const agents = await client.query<{ name: string }>(
    `update rm_agents a set name = $2, description = '', criteria = null, products = null, needs = null, is_active = false, is_deleted = true
     from (select id, name from rm_agents where id = any($1::bigint[])
           and (name <> $2 or description <> '' or criteria is not null or products is not null or needs is not null or is_active or not is_deleted)
           for update) before
     where a.id = before.id returning before.name`,
    [gone, DELETED_AGENT],
  );
  for (const { name } of agents.rows) quote(name, DELETED_AGENT);

  const conversations = (
    await client.query<{ id: string }>(
      `select distinct conversation_id as id from rm_participants
       where agent_id = any($1::bigint[]) and ($2 or conversation_id = any($3::bigint[]))`,
      [gone, sweep, [...touched.conversations]],
    )
  ).rows.map((row) => row.id);
  if (conversations.length > 0) {
    const said = await client.query<{ text: string; name: boolean }>(
      `select name as text, true as name from rm_participants where conversation_id = any($1::bigint[]) and agent_id = any($2::bigint[])
       union select content, false from rm_messages where conversation_id = any($1::bigint[]) and from_agent_id = any($2::bigint[]) and not is_automated`,
      [conversations, gone],
    );
    for (const { text, name } of said.rows) quote(text, name ? DELETED_AGENT : '(removed)');
    await client.query(
      `update rm_participants set name = $3 where conversation_id = any($1::bigint[]) and agent_id = any($2::bigint[]) and name <> $3`,
      [conversations, gone, DELETED_AGENT],
    );
    // The title told again from the names as they now read (erasedTitle: the gateway tells it the same way).
    const names = await client.query<{ id: string; names: string[] }>(
      `select conversation_id as id, array_agg(name order by ordinal) as names from rm_participants
       where conversation_id = any($1::bigint[]) group by conversation_id`,
      [conversations],
    );
    const titles = names.rows.map((row) => [row.id, erasedTitle(row.names.map((name) => ({ name })))]);
    await client.query(
      `update rm_conversations c set title = t.title from unnest($1::bigint[], $2::text[]) as t(id, title)
       where c.id = t.id and c.title <> t.title`,
      [titles.map(([id]) => id), titles.map(([, title]) => title)],
    );
    await client.query(
      `update rm_messages set content = $3, from_agent_name = case when from_agent_id = any($2::bigint[]) then $4 else from_agent_name end
       where conversation_id = any($1::bigint[]) and content <> $3 and (is_automated or is_reading or from_agent_id = any($2::bigint[]))`,
      [conversations, gone, REMOVED, DELETED_AGENT],
    );
    await client.query(`update rm_conversation_stalls set reason = '' where conversation_id = any($1::bigint[]) and reason <> ''`, [
      conversations,
    ]);
    // A notification of such a conversation told it from the events (a completion's reason names the deleted
    // agent): its message goes, its title (the kind of news) stays. Whatever the batches, the same rows result.
    await client.query(`update rm_notifications set message = $2 where link = any($1::text[]) and message <> $2`, [
      conversations.map((id) => `/conversations/${id}`),
      REMOVED,
    ]);
  }

  const scrub: Scrub = { agents: new Set(gone), quoted, deletedAgent: DELETED_AGENT };
  for (const table of DOC_TABLES) {
    const rows = await client.query<{ id: string; doc: unknown }>(`select id, doc from ${table} where $1 or id = any($2::text[])`, [
      sweep,
      [...touched.docs],
    ]);
    for (const row of rows.rows) {
      const scrubbed = scrubDoc(row.doc, scrub);
      if (scrubbed !== row.doc) await client.query(`update ${table} set doc = $2 where id = $1`, [row.id, JSON.stringify(scrubbed)]);
    }
  }

  // Longest first, so a name inside a longer quotation goes with it.
  for (const [text, replacement] of [...quoted].sort(([a], [b]) => b.length - a.length)) {
    await client.query(
      `update rm_notifications set title = replace(title, $1, $2), message = replace(message, $1, $2)
       where strpos(title, $1) > 0 or strpos(message, $1) > 0`,
      [text, replacement],
    );
    await client.query('update rm_notification_subjects set title = replace(title, $1, $2) where strpos(title, $1) > 0', [
      text,
      replacement,
    ]);
  }
}

/** The read models whose rows the erasure step rewrites (and whose rows, with rm_agents', tell it what to erase). */
const REWRITES = [
  'agents',
  'conversations',
  'deals',
  'matches',
  'documents',
  'leads',
  'conversation-status',
  'event-feed',
  'notifications',
];

export const erasureReadModel: ReadModel = {
  name: 'erasure',
  tables: [],
  migrations: [],
  reads: REWRITES,
  rewrites: REWRITES,
  project,
};
