import type pg from 'pg';
import type { AgentView, ConversationView, MessageView, StatsView } from '@pf/events';

const iso = (value: Date) => value.toISOString();

export async function listAgents(pool: pg.Pool, ownerId: string): Promise<AgentView[]> {
  const result = await pool.query(
    `select id, name, type, description, criteria, strategy, is_active, created_at, updated_at
     from rm_agents where owner_id = $1 and not is_deleted order by id desc`,
    [ownerId],
  );
  return result.rows.map((row) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    description: row.description,
    criteria: row.criteria,
    strategy: row.strategy,
    isActive: row.is_active,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  }));
}

const CONVERSATION_COLUMNS = `c.id, c.title, c.status, c.outcome, c.is_manual_mode, c.created_at, c.updated_at,
  (select json_agg(json_build_object('agentId', p.agent_id, 'name', p.name, 'type', p.type, 'isMine', p.owner_id = $1) order by p.ordinal)
   from rm_participants p where p.conversation_id = c.id) as participants`;

function toConversation(row: Record<string, any>): ConversationView {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    outcome: row.outcome,
    isManualMode: row.is_manual_mode,
    participants: row.participants ?? [],
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** Conversations are visible to the owners of their agents. */
export async function listConversations(pool: pg.Pool, userId: string): Promise<ConversationView[]> {
  const result = await pool.query(
    `select ${CONVERSATION_COLUMNS} from rm_conversations c
     where c.id in (select conversation_id from rm_participants where owner_id = $1)
     order by c.updated_at desc, c.id desc`,
    [userId],
  );
  return result.rows.map(toConversation);
}

export async function findConversation(pool: pg.Pool, userId: string, id: number): Promise<ConversationView | null> {
  const result = await pool.query(
    `select ${CONVERSATION_COLUMNS} from rm_conversations c
     where c.id = $2 and exists (select 1 from rm_participants where conversation_id = c.id and owner_id = $1)`,
    [userId, id],
  );
  return result.rows[0] ? toConversation(result.rows[0]) : null;
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

/**
 * Success rate: agreed over finished negotiations (agreed or no agreement), as a whole percentage.
 * Every count starts from the user's own rows through an index (owner, then primary keys), so the time
 * grows with the user's data, not with everyone's.
 */
export async function userStats(pool: pg.Pool, userId: string): Promise<StatsView> {
  const result = await pool.query(
    `select
       (select count(*) from rm_agents where owner_id = $1 and is_active and not is_deleted) as active_agents,
       (select count(*) from rm_match_parties where owner_id = $1) as matches_found,
       c.active, c.agreed, c.finished
     from (
       select count(*) filter (where status = 'active') as active,
              count(*) filter (where outcome = 'agreed') as agreed,
              count(*) filter (where outcome in ('agreed', 'no_agreement')) as finished
       from rm_conversations
       where id = any (array(select distinct conversation_id from rm_participants where owner_id = $1))
     ) c`,
    [userId],
  );
  const row = result.rows[0]!;
  return {
    activeAgents: row.active_agents,
    activeConversations: row.active,
    matchesFound: row.matches_found,
    successRate: row.finished > 0 ? Math.round((100 * row.agreed) / row.finished) : 0,
  };
}
