import { z } from 'zod';
import { agentType, agentView } from './agent';
import { conversationStatus, conversationView } from './conversation';
import { dealStatus, dealView } from './deal';
import { documentType, documentView } from './document';
import { leadView, matchView } from './matching';
import { storableText } from './text';

/**
 * A large book read a page at a time (docs/behaviour/console-layout.md): `GET /api/agents/page`,
 * `/api/conversations/page`, `/api/deals/page`, `/api/documents/page`, `/api/leads/page` and
 * `/api/matches/page` answer one page in the list's own order with an opaque cursor for the next, searched and
 * filtered on the server. The unpaged lists (`GET /api/agents`, `/api/deals`, …) stay as they are for clients
 * that expect the whole list.
 */
export const PAGE_LIMIT_DEFAULT = 30;
export const PAGE_LIMIT_MAX = 100;

const cursor = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,200}$/, { error: 'cursor must be a cursor from a previous page' })
  .optional();
const limit = z.coerce
  .number({ error: 'limit must be a whole number' })
  .int({ error: 'limit must be a whole number' })
  .min(1, { error: 'limit must be at least 1' })
  .max(PAGE_LIMIT_MAX, { error: `limit must be at most ${PAGE_LIMIT_MAX}` })
  .optional();
/** Searched with ILIKE in PostgreSQL, which cannot hold a NUL or an unpaired surrogate: refused here, naming q. */
const search = storableText({ error: 'q must be text' }).trim().max(100, { error: 'q must be at most 100 characters' }).optional();

/**
 * What a cursor decodes to (query-service/src/projection-kit/paging.ts): the last row's sort key, each part
 * something PostgreSQL can compare, so a cursor a client made up is a 400 naming the part, never a 500.
 */
const ISO_MICROSECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{6}Z$/;
/** A calendar date and time that exists (no 30 February, no hour 24), from year 1 to 9999 as PostgreSQL's timestamps hold. */
function isRealTime(value: string): boolean {
  const match = ISO_MICROSECONDS.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}
const cursorKeyParts = {
  /** A row's id (agents, conversations, leads): a whole number within JSON's exact range, which PostgreSQL's bigint holds. */
  id: z.number().refine(Number.isSafeInteger, { error: "the cursor's id is not a whole number in range" }),
  /** A time to the microsecond, as the conversations' cursor carries it ("2026-03-01T09:30:00.123456Z"). */
  time: z.string().refine(isRealTime, { error: "the cursor's time is not a real date and time (YYYY-MM-DDTHH:MM:SS.ffffffZ)" }),
  /** A text sort key or tie-breaker (a board row's date or id). */
  text: storableText({ error: "the cursor's key is not text" }),
};
/** The key each paged list's cursor carries. */
export const cursorKeys = {
  /** Agents: the last agent's id. */
  agents: z.tuple([cursorKeyParts.id]),
  /** Conversations: the last one's update time and id. */
  conversations: z.tuple([cursorKeyParts.time, cursorKeyParts.id]),
  /** A board sorted by a text key (deals, documents, matches): the last row's key and id. */
  boardByText: z.tuple([cursorKeyParts.text, cursorKeyParts.text]),
  /** A board sorted by a numeric key (leads): the last row's key and id. */
  boardByNumber: z.tuple([cursorKeyParts.id, cursorKeyParts.text]),
};

export const agentPageQuery = z.strictObject({ cursor, limit, q: search, type: agentType.optional() });
export type AgentPageQuery = z.infer<typeof agentPageQuery>;
export const conversationPageQuery = z.strictObject({
  cursor,
  limit,
  q: search,
  status: conversationStatus.optional(),
  /** Manual: a person has taken over a side of it; automatic: nobody has. */
  mode: z.enum(['manual', 'automatic'], { error: 'mode must be manual or automatic' }).optional(),
});
export type ConversationPageQuery = z.infer<typeof conversationPageQuery>;
/** Deals searched by property address or borrower name, filtered by status (docs/behaviour/deals.md). */
export const dealPageQuery = z.strictObject({ cursor, limit, q: search, status: dealStatus.optional() });
export type DealPageQuery = z.infer<typeof dealPageQuery>;
/** Documents searched by name or their deal's address, filtered by type (docs/behaviour/documents.md). */
export const documentPageQuery = z.strictObject({ cursor, limit, q: search, type: documentType.optional() });
export type DocumentPageQuery = z.infer<typeof documentPageQuery>;
/** Leads searched by name or requirements, filtered by type (docs/behaviour/matching.md). */
export const leadPageQuery = z.strictObject({ cursor, limit, q: search, type: agentType.optional() });
export type LeadPageQuery = z.infer<typeof leadPageQuery>;
/** Active Matches has neither search nor filter: pages only. */
export const matchPageQuery = z.strictObject({ cursor, limit });
export type MatchPageQuery = z.infer<typeof matchPageQuery>;

const page = <Item extends z.ZodType>(item: Item) =>
  z.object({
    items: z.array(item),
    /** Pass as `cursor` for the next page; null on the last. */
    nextCursor: z.string().nullable(),
    /** How many match the search and filter, over all pages. */
    total: z.number().int().nonnegative(),
  });
export const agentPage = page(agentView);
export type AgentPage = z.infer<typeof agentPage>;
export const conversationPage = page(conversationView);
export type ConversationPage = z.infer<typeof conversationPage>;
export const dealPage = page(dealView);
export type DealPage = z.infer<typeof dealPage>;
export const documentPage = page(documentView);
export type DocumentPage = z.infer<typeof documentPage>;
export const leadPage = page(leadView);
export type LeadPage = z.infer<typeof leadPage>;
export const matchPage = page(matchView);
export type MatchPage = z.infer<typeof matchPage>;
