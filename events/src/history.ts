import { z } from 'zod';
import { agentType } from './agent';
import { conversationView, messageView } from './conversation';
import { loanTerms } from './negotiation';
import { OFFER_STATUSES } from './offers/offer-book';
import { moveReason, offeredProduct, offerFiguresView } from './offers/offer';
import { positionToken } from './position';

/**
 * The auditor's view of a conversation (docs/behaviour/history.md): every stored event of the conversation and of what it
 * depends on, read from the event store (never from the read models), with who acted and a plain summary.
 */

/** Who caused an event, as a person reads it: a person (and the session they acted in), an agent, or the system. */
export const historyActor = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('person'),
    userId: z.string(),
    /** Display name from the account, when it has one. */
    name: z.string(),
    /** A public id of the signed-in session (never the cookie); null for events written before sessions were recorded. */
    sessionId: z.string().nullable(),
    /** The agent this person spoke or acted for, when the event names one. */
    agentId: z.number().int().nullable(),
    /** Their current profile photo (GET /api/auth/photos/:photoId), when they have one. */
    photoId: z.string().optional(),
  }),
  z.object({ kind: z.literal('agent'), agentId: z.number().int(), name: z.string() }),
  z.object({ kind: z.literal('system'), name: z.string() }),
]);
export type HistoryActor = z.infer<typeof historyActor>;

/** What an event is about, for the timeline's filter (messages, offers, control) and the rest. */
export const HISTORY_KINDS = ['message', 'offer', 'control', 'lifecycle', 'agent', 'match', 'deal'] as const;
export const historyKind = z.enum(HISTORY_KINDS);
export type HistoryKind = z.infer<typeof historyKind>;

export const historyEvent = z.object({
  id: z.string(),
  position: positionToken,
  stream: z.string(),
  streamVersion: z.number().int().nonnegative(),
  recordedAt: z.string(),
  type: z.string(),
  kind: historyKind,
  actor: historyActor,
  summary: z.string(),
  /** The stored data; for another owner's agent, only its name and type (their limits are theirs). */
  data: z.unknown(),
  redacted: z.boolean(),
  /**
   * The stored metadata exactly as hashed (correlation and causation ids included), so an export can be
   * checked offline; null when redacted. z.unknown, not the metadata schema: a schema would drop a key it does
   * not know and the hash would no longer recompute.
   */
  metadata: z.unknown(),
  /** For a redacted event only: the SHA-256 of its canonical encoding (hash-chain.ts), which its hash covers in place of its data. */
  contentDigest: z.string().nullable(),
  /** The event's link in its stream's hash chain (null for events stored before the chain existed). */
  hash: z.string().nullable(),
  previousHash: z.string().nullable(),
  /**
   * For an event that records terms (an offer, an acceptance, an agreement): their regulated figures
   * (docs/behaviour/offers.md), computed by the read side from the event's terms and product, so a screen shows them and
   * computes none. Absent for every other event, and for terms no figures can be computed for. Not part of the hash.
   */
  figures: offerFiguresView.optional(),
});
export type HistoryEvent = z.infer<typeof historyEvent>;

export const historyPage = z.object({
  conversationId: z.number().int(),
  events: z.array(historyEvent),
  /** Pass as `after` for the next page; null on the last page. */
  nextAfter: positionToken.nullable(),
  total: z.number().int().nonnegative(),
});
export type HistoryPage = z.infer<typeof historyPage>;

export const HISTORY_PAGE_MAX = 500;

/** GET /api/conversations/:id/history?after=&limit=&at= */
export const historyQuery = z.strictObject({
  after: positionToken.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(HISTORY_PAGE_MAX, { error: `limit must be at most ${HISTORY_PAGE_MAX}` })
    .optional(),
  at: z
    .string()
    .refine((value) => positionToken.safeParse(value).success || isIsoTime(value), {
      error: 'at must be a position such as "812:40" or an ISO time such as "2026-01-01T09:00:00Z"',
    })
    .optional(),
});

export function isIsoTime(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));
}

/**
 * One side's latest offer as it stood (the offer book's, docs/behaviour/offers.md): open, accepted, rejected, or
 * superseded (by an acceptance of another offer), with the product it offered, why an agent made it, and its figures.
 */
export const standingOffer = z.object({
  offerId: z.string(),
  agentId: z.number().int(),
  agentName: z.string(),
  agentType,
  round: z.number().int(),
  terms: loanTerms,
  status: z.enum(OFFER_STATUSES),
  /** The product the terms are of; null for offers from before products. */
  product: offeredProduct.nullable(),
  /** An automated move's rule and figures; null for a person's offer and before reasons were recorded. */
  reason: moveReason.nullable(),
  /** Null only where none can be computed (terms recorded before the terms rules). */
  figures: offerFiguresView.nullable(),
  position: positionToken,
  recordedAt: z.string(),
});
export type StandingOffer = z.infer<typeof standingOffer>;

/** A time a person held control: from their takeover to the hand-back (or still holding). */
export const takeover = z.object({
  userId: z.string(),
  name: z.string(),
  sessionId: z.string().nullable(),
  /** The agents whose control changed; one side's, or every agent for events from before control was per side (docs/decisions/per-side-control.md). */
  agentIds: z.array(z.number().int()),
  startedAt: z.string(),
  startPosition: positionToken,
  endedAt: z.string().nullable(),
  endPosition: positionToken.nullable(),
  /** Who handed control back, when it was someone else. */
  endedBy: z.string().nullable(),
  /** Until the hand-back, or until `at` / now while still held. */
  durationMs: z.number().int().nonnegative(),
  messages: z.array(z.object({ position: positionToken, agentId: z.number().int(), content: z.string(), recordedAt: z.string() })),
  offers: z.array(z.object({ position: positionToken, agentId: z.number().int(), terms: loanTerms, recordedAt: z.string() })),
});
export type Takeover = z.infer<typeof takeover>;

/** The conversation as it stood at a moment (`?at=`), folded by the read model's own evolve. */
export const historyState = z.object({
  conversationId: z.number().int(),
  at: z.object({ requested: z.string(), position: positionToken.nullable(), recordedAt: z.string().nullable() }),
  /** Null when the conversation had not started yet at that moment. */
  conversation: conversationView.nullable(),
  messages: z.array(messageView),
  offers: z.array(standingOffer),
  takeovers: z.array(takeover),
});
export type HistoryState = z.infer<typeof historyState>;

export const brokenLink = z.object({
  stream: z.string(),
  position: positionToken.nullable(),
  streamVersion: z.number().int(),
  eventId: z.string().nullable(),
  type: z.string().nullable(),
  reason: z.string(),
});
export type BrokenLink = z.infer<typeof brokenLink>;

export const streamVerification = z.object({
  stream: z.string(),
  intact: z.boolean(),
  events: z.number().int().nonnegative(),
  headVersion: z.number().int().nullable(),
  headHash: z.string().nullable(),
  firstBroken: brokenLink.nullable(),
});
export type StreamVerification = z.infer<typeof streamVerification>;

/** GET /api/conversations/:id/verify */
export const conversationVerification = z.object({
  conversationId: z.number().int(),
  intact: z.boolean(),
  streams: z.array(streamVerification),
  verifiedAt: z.string(),
});
export type ConversationVerification = z.infer<typeof conversationVerification>;

/** GET /api/conversations/:id/history/export?format=json: the full history for an auditor. */
export const historyExport = z.object({
  conversationId: z.number().int(),
  exportedAt: z.string(),
  verification: conversationVerification,
  events: z.array(historyEvent),
});
export type HistoryExport = z.infer<typeof historyExport>;

export const historyExportQuery = z.strictObject({
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).optional(),
});
