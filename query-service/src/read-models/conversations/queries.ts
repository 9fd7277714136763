import type pg from 'pg';
import { conversationViewFor, type Conversation, type ConversationView, type MessageView } from '@pf/events';
import { AccountStore } from '@pf/infra';
import { iso } from '../fold-batch';
import { CONVERSATION_SELECT, conversationFromRow, MATCH_COLUMN, withMatch } from './rows';

/**
 * The views a user is shown, with the names of the people in control of each side. Names are read from the
 * accounts at read time, never stored in events or read models, so a deleted account's name is gone everywhere.
 */
async function viewsFor(pool: pg.Pool, rows: Record<string, any>[], userId: string): Promise<ConversationView[]> {
  const conversations: Conversation[] = rows.map(conversationFromRow);
  const controllers = [...new Set(conversations.flatMap((c) => c.manualSides.flatMap((side) => (side.byUserId ? [side.byUserId] : []))))];
  const names = await new AccountStore(pool).displayNames(controllers);
  return conversations.map((c, index) => withMatch(conversationViewFor(c, userId, (id) => names.get(id) ?? null), rows[index]!));
}

/** Conversations are visible to the owners of their agents; the most recently active first. */
export async function listConversations(pool: pg.Pool, userId: string): Promise<ConversationView[]> {
  const result = await pool.query(
    `select ${CONVERSATION_SELECT}, ${MATCH_COLUMN} from rm_conversations c
     where c.id in (select conversation_id from rm_participants where owner_id = $1)
     order by c.updated_at desc, c.id desc`,
    [userId],
  );
  return viewsFor(pool, result.rows, userId);
}

export async function findConversation(pool: pg.Pool, userId: string, id: number): Promise<ConversationView | null> {
  const result = await pool.query(
    `select ${CONVERSATION_SELECT}, ${MATCH_COLUMN} from rm_conversations c
     where c.id = $2 and exists (select 1 from rm_participants where conversation_id = c.id and owner_id = $1)`,
    [userId, id],
  );
  return result.rows[0] ? (await viewsFor(pool, result.rows, userId))[0]! : null;
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
