import type pg from 'pg';
import { conversationsView, firmOf, messageOf, type Conversation } from '@pf/events';
import type { RecordedEvent } from '@pf/infra';
import type { BulkTarget } from '../../projection-kit/bulk-fill';
import { foldBatch, keysOf, writeRows } from '../../projection-kit/fold-batch';
import type { ProjectorMemory } from '../../projection-kit/memory';
import { CONVERSATION_SELECT, conversationFromRow, type ConversationRow } from './rows';

const CONVERSATIONS: BulkTarget = {
  table: 'rm_conversations',
  columns: ['id', 'title', 'status', 'outcome', 'is_manual_mode', 'match_id', 'created_at', 'updated_at', 'manual_sides'],
  key: [0],
  whenStored: 'statement',
};
const PARTICIPANTS: BulkTarget = {
  table: 'rm_participants',
  columns: ['conversation_id', 'agent_id', 'owner_id', 'firm_id', 'name', 'type', 'ordinal'],
  key: [0, 1],
  whenStored: 'nothing',
};
const MESSAGES: BulkTarget = {
  table: 'rm_messages',
  columns: [
    'id',
    'conversation_id',
    'seq',
    'from_agent_id',
    'to_agent_id',
    'from_agent_name',
    'from_agent_type',
    'content',
    'is_automated',
    'is_reading',
    'created_at',
  ],
  key: [0],
  whenStored: 'nothing',
};

/**
 * Loads the conversations the batch touches (with their participants), folds the batch with the shared
 * evolve, and writes back in three statements: the changed conversations, the participants of the new
 * ones, and the messages (a message never changes: inserted once, ordered by its stream version).
 */
export async function projectConversations(
  client: pg.ClientBase,
  batch: readonly RecordedEvent[],
  memory?: ProjectorMemory,
): Promise<void> {
  const ids = keysOf(conversationsView, batch);
  if (ids.length === 0) return;
  const stored = new Map<number, Conversation>();
  // What the projector wrote itself it knows without reading (projection-kit/memory.ts); the rest is loaded.
  const unknown = ids.filter((id) => {
    const known = memory?.conversation(id);
    if (known) stored.set(id, known);
    return !known;
  });
  if (unknown.length > 0) {
    const loaded = await client.query<ConversationRow>(
      `select ${CONVERSATION_SELECT} from rm_conversations c where c.id = any($1::bigint[])`,
      [unknown],
    );
    for (const row of loaded.rows) stored.set(row.id, conversationFromRow(row));
  }

  const messages: unknown[][] = [];
  const changed = foldBatch(conversationsView, batch, stored, (conversation, event, recorded, recordedAt) => {
    const m = messageOf(conversation, event, recordedAt);
    if (m)
      messages.push([
        m.id,
        m.conversationId,
        recorded.streamVersion,
        m.fromAgentId,
        m.toAgentId,
        m.fromAgentName,
        m.fromAgentType,
        m.content,
        m.isAutomated,
        m.isReading === true,
        m.createdAt,
      ]);
  });

  memory?.stage(stored.values());
  memory?.stage(changed);
  const rows = changed.map((c) => [
    c.id,
    c.title,
    c.status,
    c.outcome,
    c.isManualMode,
    c.matchId,
    c.createdAt,
    c.updatedAt,
    JSON.stringify(c.manualSides),
  ]);
  await writeRows(
    client,
    rows,
    ['bigint', 'text', 'text', 'text', 'boolean', 'text', 'timestamptz', 'timestamptz', 'jsonb'],
    (v) =>
      `insert into rm_conversations (${CONVERSATIONS.columns.join(', ')})
     select v1, v2, v3, v4, v5, v6, v7, v8, v9 from ${v} order by ord
     on conflict (id) do update set status = excluded.status, outcome = excluded.outcome,
       is_manual_mode = excluded.is_manual_mode, updated_at = excluded.updated_at, manual_sides = excluded.manual_sides`,
    CONVERSATIONS,
  );
  const participants = changed
    .filter((c) => !stored.has(c.id))
    .flatMap((c) => c.participants.map((p, index) => [c.id, p.agentId, p.ownerId, firmOf(p), p.name, p.type, index + 1]));
  await writeRows(
    client,
    participants,
    ['bigint', 'bigint', 'text', 'text', 'text', 'text', 'int'],
    (v) =>
      `insert into rm_participants (${PARTICIPANTS.columns.join(', ')})
     select v1, v2, v3, v4, v5, v6, v7 from ${v} order by ord on conflict do nothing`,
    PARTICIPANTS,
  );
  await writeRows(
    client,
    messages,
    ['bigint', 'bigint', 'bigint', 'bigint', 'bigint', 'text', 'text', 'text', 'boolean', 'boolean', 'timestamptz'],
    (v) =>
      `insert into rm_messages (${MESSAGES.columns.join(', ')})
     select v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11 from ${v} order by ord on conflict (id) do nothing`,
    MESSAGES,
  );
}
