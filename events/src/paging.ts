import { z } from 'zod';
import { agentType, agentView } from './agent';
import { conversationStatus, conversationView } from './conversation';
import { dealStatus, dealView } from './deal';
import { documentType, documentView } from './document';
import { leadView, matchView } from './matching';

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
const search = z.string().trim().max(100, { error: 'q must be at most 100 characters' }).optional();

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
