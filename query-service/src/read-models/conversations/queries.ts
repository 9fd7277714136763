import type pg from 'pg';
import { conversationViewFor, streams, type ConversationView, type MessageView } from '@pf/events';
import { iso } from '../fold-batch';
import { CONTROLLERS_COLUMN, controllerNames, CONVERSATION_SELECT, conversationFromRow, MATCH_COLUMN, withMatch } from './rows';

/**
 * The views a user is shown, with the names of the people in control of each side. Names are read from the
 * accounts at read time (CONTROLLERS_COLUMN), never stored in events or read models, so a deleted account's
 * name is gone everywhere.
 */
function viewOf(row: Record<string, any>, userId: string): ConversationView {
  const names = controllerNames(row);
  return withMatch(conversationViewFor(conversationFromRow(row), userId, (id) => names.get(id) ?? null), row);
}

const VIEW_COLUMNS = `${CONVERSATION_SELECT}, ${MATCH_COLUMN}, ${CONTROLLERS_COLUMN}`;

/** Conversations are visible to the owners of their agents; the most recently active first. */
export async function listConversations(pool: pg.Pool, userId: string): Promise<ConversationView[]> {
  const result = await pool.query(
    `select ${VIEW_COLUMNS} from rm_conversations c
     where c.id in (select conversation_id from rm_participants where owner_id = $1)
     order by c.updated_at desc, c.id desc`,
    [userId],
  );
  return result.rows.map((row) => viewOf(row, userId));
}

export async function findConversation(pool: pg.Pool, userId: string, id: number): Promise<ConversationView | null> {
  return (await findConversationWithVersion(pool, userId, id))?.view ?? null;
}

/**
 * One conversation and the version of its stream as the read models know it (for the ETag), in one statement:
 * both from the same snapshot, so the version is never newer than the row it is sent with.
 */
export async function findConversationWithVersion(
  pool: pg.Pool,
  userId: string,
  id: number,
): Promise<{ view: ConversationView; version: number | null } | null> {
  const result = await pool.query(
    `select ${VIEW_COLUMNS}, (select version from rm_stream_versions where stream = $3) as stream_version from rm_conversations c
     where c.id = $2 and exists (select 1 from rm_participants where conversation_id = c.id and owner_id = $1)`,
    [userId, id, streams.conversation(id)],
  );
  const row = result.rows[0];
  return row ? { view: viewOf(row, userId), version: row.stream_version ?? null } : null;
}

export async function listMessages(pool: pg.Pool, conversationId: number): Promise<MessageView[]> {
  const result = await pool.query(
    `select id, conversation_id, from_agent_id, to_agent_id, from_agent_name, from_agent_type, content, is_automated, created_at
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
    createdAt: iso(row.created_at),
  }));
}
