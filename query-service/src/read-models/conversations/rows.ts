import { recordedMatchExplanation, storedSides, type Conversation, type ConversationView, type Participant } from '@pf/events';
import { displayName } from '@pf/infra';
import { iso } from '../../projection-kit/fold-batch';

/** Selects a conversation `c` with its participants (owners included), in the order they were named at the start. */
export const CONVERSATION_SELECT = `c.id, c.title, c.status, c.outcome, c.is_manual_mode, c.manual_sides, c.match_id, c.created_at, c.updated_at,
  (select json_agg(json_build_object('agentId', p.agent_id, 'ownerId', p.owner_id, 'firmId', p.firm_id, 'name', p.name, 'type', p.type) order by p.ordinal)
   from rm_participants p where p.conversation_id = c.id) as participants`;

/**
 * The people in control of `c`'s sides, as `[[id, first name, last name], ...]`: read in the same statement
 * as the conversation (one round trip, one snapshot), never stored, so a deleted account's name is gone.
 */
export const CONTROLLERS_COLUMN = `(select json_agg(json_build_array(u.id, u.first_name, u.last_name)) from users u
   where u.id = any(array(
     select by_user::uuid from (select side->>'byUserId' as by_user from jsonb_array_elements(c.manual_sides) side) sides
     where by_user ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'))) as controllers`;

/** A row selected with CONVERSATION_SELECT, as node-postgres returns it (bigint as number: infra/src/db/pool.ts). */
export interface ConversationRow {
  id: number;
  title: string;
  status: Conversation['status'];
  outcome: Conversation['outcome'];
  is_manual_mode: boolean;
  /** As stored: rows folded before a side was one participant keep owner-keyed sides (storedSides reads both). */
  manual_sides: unknown[] | null;
  match_id: string | null;
  created_at: Date;
  updated_at: Date;
  participants: Participant[] | null;
}

/** A row with CONTROLLERS_COLUMN: the people in control, as `[id, first name, last name]`. */
export interface ControllersRow {
  controllers: [string, string | null, string | null][] | null;
}

/** The names of a row's CONTROLLERS_COLUMN, by user id, as the accounts show them. */
export function controllerNames(row: ControllersRow): Map<string, string> {
  return new Map((row.controllers ?? []).map(([id, firstName, lastName]) => [id, displayName(firstName, lastName)]));
}

/** A row selected with CONVERSATION_SELECT as the shared conversations view's state. */
export function conversationFromRow(row: ConversationRow): Conversation {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    outcome: row.outcome,
    isManualMode: row.is_manual_mode,
    manualSides: storedSides(row.manual_sides ?? [], row.participants ?? []),
    matchId: row.match_id,
    participants: row.participants ?? [],
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * The match that opened the conversation, with its per-criterion explanation, for the conversation
 * header. Read at query time from rm_matches (the matches-found read model), so the folded state stays the
 * shared view's; only the queries select it, beside CONVERSATION_SELECT.
 */
export const MATCH_COLUMN = `(select json_build_object('score', m.score::float8, 'explanation', m.explanation)
   from rm_matches m where m.match_id = c.match_id) as match`;

/**
 * A row selected with MATCH_COLUMN: the view with its match (null when no match opened the conversation).
 * rm_matches keeps the explanation as recorded, so a match recorded in the old words (meets / near / fails) is read
 * here as pass / warn / fail: the answer's schema speaks only those.
 */
export interface MatchRow {
  match: { score: number; explanation: unknown } | null;
}

export function withMatch(view: ConversationView, row: MatchRow): ConversationView {
  const match = row.match ? { score: row.match.score, explanation: recordedMatchExplanation.parse(row.match.explanation) } : null;
  return { ...view, match };
}
