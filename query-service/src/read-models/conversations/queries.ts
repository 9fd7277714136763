import type pg from 'pg';
import {
  conversationViewFor,
  cursorKeys,
  PAGE_LIMIT_DEFAULT,
  streams,
  type ConversationPage,
  type ConversationPageQuery,
  type ConversationView,
  type ViewerOrUser,
  asViewer,
  type MessageView,
} from '@pf/events';
import { containsPattern, decodeCursor, encodeCursor } from '../../projection-kit/paging';
import { iso } from '../../projection-kit/fold-batch';
import {
  CONTROLLERS_COLUMN,
  controllerNames,
  CONVERSATION_SELECT,
  conversationFromRow,
  MATCH_COLUMN,
  withMatch,
  type ControllersRow,
  type ConversationRow,
  type MatchRow,
} from './rows';

/** A row selected with VIEW_COLUMNS. */
interface ViewRow extends ConversationRow, MatchRow, ControllersRow {
  firm_names: [string, string][] | null;
}

/**
 * The views a user is shown, with the names of the people in control of each side. Names are read from the
 * accounts at read time (CONTROLLERS_COLUMN), never stored in events or read models, so a deleted account's
 * name is gone everywhere.
 */
function viewOf(row: ViewRow, viewer: ViewerOrUser): ConversationView {
  const names = controllerNames(row);
  const firms = new Map<string, string>(row.firm_names ?? []);
  return withMatch(
    conversationViewFor(
      conversationFromRow(row),
      viewer,
      (id) => names.get(id) ?? null,
      (id) => firms.get(id) ?? null,
    ),
    row,
  );
}

/** The names of the firms taking part (each side sees the other's firm inside a shared conversation). */
const FIRM_NAMES_COLUMN = `(select json_agg(json_build_array(f.id, f.name)) from firms f
   where f.id in (select p.firm_id from rm_participants p where p.conversation_id = c.id)) as firm_names`;

const VIEW_COLUMNS = `${CONVERSATION_SELECT}, ${MATCH_COLUMN}, ${CONTROLLERS_COLUMN}, ${FIRM_NAMES_COLUMN}`;

/** Conversations are visible to the firms of their agents (visibility.ts: canSeeConversation); the most recently active first. */
export async function listConversations(pool: pg.Pool, viewerOrUser: ViewerOrUser): Promise<ConversationView[]> {
  const viewer = asViewer(viewerOrUser);
  const result = await pool.query<ViewRow>(
    `select ${VIEW_COLUMNS} from rm_conversations c
     where c.id in (select conversation_id from rm_participants where firm_id = $1)
     order by c.updated_at desc, c.id desc`,
    [viewer.firmId],
  );
  return result.rows.map((row) => viewOf(row, viewer));
}

export async function findConversation(pool: pg.Pool, viewer: ViewerOrUser, id: number): Promise<ConversationView | null> {
  return (await findConversationWithVersion(pool, viewer, id))?.view ?? null;
}

/**
 * One conversation and the version of its stream as the read models know it (for the ETag), in one statement:
 * both from the same snapshot, so the version is never newer than the row it is sent with.
 */
export async function findConversationWithVersion(
  pool: pg.Pool,
  viewerOrUser: ViewerOrUser,
  id: number,
): Promise<{ view: ConversationView; version: number | null } | null> {
  const viewer = asViewer(viewerOrUser);
  const result = await pool.query<ViewRow & { stream_version: number | null }>(
    `select ${VIEW_COLUMNS}, (select version from rm_stream_versions where stream = $3) as stream_version from rm_conversations c
     where c.id = $2 and exists (select 1 from rm_participants where conversation_id = c.id and firm_id = $1)`,
    [viewer.firmId, id, streams.conversation(id)],
  );
  const row = result.rows[0];
  return row ? { view: viewOf(row, viewer), version: row.stream_version ?? null } : null;
}

export async function listMessages(pool: pg.Pool, conversationId: number): Promise<MessageView[]> {
  const result = await pool.query<{
    id: number;
    conversation_id: number;
    from_agent_id: number;
    to_agent_id: number | null;
    from_agent_name: string;
    from_agent_type: MessageView['fromAgentType'];
    content: string;
    is_automated: boolean;
    is_reading: boolean;
    created_at: Date;
  }>(
    `select id, conversation_id, from_agent_id, to_agent_id, from_agent_name, from_agent_type, content, is_automated, is_reading, created_at
     from rm_messages where conversation_id = $1 order by seq`,
    [conversationId],
  );
  return result.rows.map((row) => ({
    id: row.id,
    conversationId: row.conversation_id,
    fromAgentId: row.from_agent_id,
    toAgentId: row.to_agent_id,
    fromAgentName: row.from_agent_name,
    fromAgentType: row.from_agent_type,
    content: row.content,
    isAutomated: row.is_automated,
    ...(row.is_reading ? { isReading: true } : {}),
    createdAt: iso(row.created_at),
  }));
}

/**
 * One page of the conversations a firm can see, the most recently active first: searched by title (any part,
 * any case) and filtered by status on the server, with the cursor of the next page (the last row's update
 * time to the microsecond, and its id) and how many match in all (events/src/paging.ts). The page's ids are
 * chosen first, so the per-row columns (participants, controllers, firms) are read for that page only.
 */
export async function pageConversations(
  pool: pg.Pool,
  viewerOrUser: ViewerOrUser,
  query: ConversationPageQuery,
): Promise<ConversationPage> {
  const viewer = asViewer(viewerOrUser);
  const after = decodeCursor(query.cursor, cursorKeys.conversations);
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT;
  const filters = `c.id in (select conversation_id from rm_participants where firm_id = $1)
     and ($2::text is null or c.title ilike $2) and ($3::text is null or c.status = $3)
     and ($4::boolean is null or c.is_manual_mode = $4)`;
  const values = [
    viewer.firmId,
    query.q ? containsPattern(query.q) : null,
    query.status ?? null,
    query.mode ? query.mode === 'manual' : null,
  ];
  const [rows, count] = await Promise.all([
    pool.query<ViewRow & { sort_at: string }>(
      `with page as (
         select c.id, c.updated_at from rm_conversations c
         where ${filters} and ($5::timestamptz is null or (c.updated_at, c.id) < ($5::timestamptz, $6::bigint))
         order by c.updated_at desc, c.id desc limit $7
       )
       select ${VIEW_COLUMNS}, to_char(c.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sort_at
       from rm_conversations c join page using (id)
       order by c.updated_at desc, c.id desc`,
      [...values, after?.[0] ?? null, after?.[1] ?? null, limit + 1],
    ),
    pool.query<{ total: number }>(`select count(*)::int as total from rm_conversations c where ${filters}`, values),
  ]);
  const kept = rows.rows.slice(0, limit);
  const last = kept[kept.length - 1];
  return {
    items: kept.map((row) => viewOf(row, viewer)),
    nextCursor: rows.rows.length > limit && last ? encodeCursor([last.sort_at, last.id]) : null,
    total: count.rows[0]!.total,
  };
}
