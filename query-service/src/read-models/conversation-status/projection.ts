import type pg from 'pg';
import type { Migration, RecordedEvent } from '@pf/infra';
import type { ReadModel } from '../../projection-kit/read-model';

const migrations: Migration[] = [
  {
    name: 'query-service/conversation-status/001-stalls',
    sql: `
      -- Conversations whose automated agents cannot make their move (ConversationStalled), until the
      -- conversation moves again.
      create table rm_conversation_stalls (
        conversation_id bigint primary key,
        agent_id bigint,
        reason text not null,
        stalled_at timestamptz not null
      );
    `,
  },
];

type Stall = { agentId: number | null; reason: string; at: Date } | null;

/** The last word per conversation in the batch: stalled (with why), or moving again (null). */
function stallsOf(batch: readonly RecordedEvent[]): Map<number, Stall> {
  const stalls = new Map<number, Stall>();
  for (const event of batch) {
    if (!('conversationId' in event.data)) continue;
    if (event.type === 'ConversationStalled') {
      stalls.set(event.data.conversationId, { agentId: event.data.agentId, reason: event.data.reason, at: event.recordedAt });
    } else if (event.type !== 'ConversationStarted') {
      // A message, an offer, a takeover or the end: the conversation is no longer stuck where it was.
      stalls.set(event.data.conversationId, null);
    }
  }
  return stalls;
}

async function project(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  const stalls = stallsOf(batch);
  if (stalls.size === 0) return;
  const cleared = [...stalls].filter(([, stall]) => stall === null).map(([id]) => id);
  const set = [...stalls].filter((entry): entry is [number, NonNullable<Stall>] => entry[1] !== null);
  if (cleared.length > 0) await client.query('delete from rm_conversation_stalls where conversation_id = any($1::bigint[])', [cleared]);
  if (set.length > 0) {
    await client.query(
      `insert into rm_conversation_stalls (conversation_id, agent_id, reason, stalled_at)
       select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::timestamptz[])
       on conflict (conversation_id) do update set agent_id = excluded.agent_id, reason = excluded.reason, stalled_at = excluded.stalled_at`,
      [set.map(([id]) => id), set.map(([, s]) => s.agentId), set.map(([, s]) => s.reason), set.map(([, s]) => s.at)],
    );
  }
}

export const conversationStatusReadModel: ReadModel = {
  name: 'conversation-status',
  tables: ['rm_conversation_stalls'],
  migrations,
  project,
};
