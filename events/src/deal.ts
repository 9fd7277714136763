import { z } from 'zod';
import { visibleText } from './text';
import { agentType } from './agent';
import { offeredProduct, offerFiguresView } from './offers/offer';

/** Deal status and stage. */
export const DEAL_STATUSES = ['active', 'pending', 'completed', 'cancelled'] as const;
export const dealStatus = z.enum(DEAL_STATUSES, { error: 'status must be one of active, pending, completed, cancelled' });
export type DealStatus = z.infer<typeof dealStatus>;

export const DEAL_STAGES = ['application', 'valuation', 'underwriting', 'completed'] as const;
export const dealStage = z.enum(DEAL_STAGES, { error: 'stage must be one of application, valuation, underwriting, completed' });
export type DealStage = z.infer<typeof dealStage>;

/** A party to a deal as it stood when the deal opened: the agent, its owner (who may see the deal), its name. */
export const dealParty = z.object({
  agentId: z.number().int().positive(),
  ownerId: z.string(),
  /** The agent's firm (who may see the deal); absent before firms (then its owner's firm of one). */
  firmId: z.string().optional(),
  name: z.string(),
  type: agentType,
});
export type DealParty = z.infer<typeof dealParty>;

const dealId = z.string().uuid();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** The terms a deal is agreed on: as DealAgreed records them and DealOpened carries them onto the deal. */
export const agreedDealTerms = {
  propertyValue: z.number().int(),
  loanAmount: z.number().int(),
  ltv: z.number(),
  interestRate: z.number(),
  termYears: z.number().int(),
  arrangementFee: z.number().int(),
};

export const dealOpened = z.object({
  type: z.literal('DealOpened'),
  data: z.object({
    dealId,
    /** An agreed negotiation (its conversation) or the New Deal form. */
    source: z.enum(['negotiation', 'manual']),
    /** The conversation whose agents agreed it (named apart from `conversationId`, which marks a conversation's own events). */
    agreedInConversationId: z.number().int().positive().nullable(),
    borrower: dealParty,
    lender: dealParty,
    broker: dealParty.nullable(),
    /** Empty until someone enters it: agents agree terms, not addresses. */
    propertyAddress: z.string(),
    ...agreedDealTerms,
    /** The product agreed, from DealAgreed (docs/behaviour/offers.md); absent for deals made by hand and before products. */
    product: offeredProduct.optional(),
    /** A deal a broker introduced: the lender's procuration fee to the broker, pounds, from DealAgreed; absent before products. */
    procurationFee: z.number().int().nonnegative().optional(),
    targetCompletion: isoDate.nullable(),
  }),
});
export const dealStatusChanged = z.object({
  type: z.literal('DealStatusChanged'),
  data: z.object({ dealId, status: dealStatus, from: dealStatus }),
});
export const dealStageChanged = z.object({
  type: z.literal('DealStageChanged'),
  data: z.object({ dealId, stage: dealStage, from: dealStage }),
});
export const dealEdited = z.object({
  type: z.literal('DealEdited'),
  data: z.object({ dealId, propertyAddress: z.string(), targetCompletion: isoDate.nullable() }),
});

const money = (label: string) =>
  z
    .number({ error: `${label} must be a number of pounds` })
    .int({ error: `${label} must be whole pounds` })
    .positive({ error: `${label} must be more than £0` })
    .max(100_000_000, { error: `${label} is at most £100,000,000` });

const propertyAddress = visibleText('Property address', { error: 'Property address is required' })
  .trim()
  .min(1, { error: 'Property address is required' })
  .max(200, { error: 'Property address is at most 200 characters' });

/** True for a day that exists: the shape alone lets through 2026-13-45 or 2026-02-30, which Date would roll over. */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const targetCompletion = z
  .string({ error: 'Target completion must be a date such as 2026-09-30' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Target completion must be a date such as 2026-09-30' })
  .refine(isCalendarDate, { error: (issue) => `Target completion must be a real calendar date; ${String(issue.input)} is not one` })
  .nullable()
  .optional();

const agentId = (role: string) =>
  z
    .number({ error: `Choose the ${role} agent` })
    .int()
    .positive({ error: `Choose the ${role} agent` });

/** POST /api/deals: the New Deal form (one schema for the console and the server). */
export const newDealInput = z
  .strictObject({
    propertyAddress,
    borrowerAgentId: agentId('borrower'),
    lenderAgentId: agentId('lender'),
    brokerAgentId: z.number().int().positive().nullable().optional(),
    propertyValue: money('Property value'),
    loanAmount: money('Loan amount'),
    interestRate: z
      .number({ error: 'Interest rate must be a percentage such as 4.25' })
      .min(0.01, { error: 'Interest rate must be more than 0%' })
      .max(25, { error: 'Interest rate is at most 25%' }),
    termYears: z
      .number({ error: 'Term must be a number of years' })
      .int({ error: 'Term must be whole years' })
      .min(1, { error: 'Term must be at least 1 year' })
      .max(40, { error: 'Term is at most 40 years' }),
    arrangementFee: z
      .number({ error: 'Arrangement fee must be a number of pounds' })
      .int({ error: 'Arrangement fee must be whole pounds' })
      .min(0, { error: 'Arrangement fee cannot be negative' })
      .max(100_000, { error: 'Arrangement fee is at most £100,000' })
      .optional()
      .transform((value) => value ?? 0),
    targetCompletion,
  })
  .refine((deal) => deal.loanAmount <= deal.propertyValue, {
    path: ['loanAmount'],
    error: 'Loan amount cannot be more than the property value',
  });
export type NewDealInput = z.input<typeof newDealInput>;
export type NewDeal = z.output<typeof newDealInput>;

/** PATCH /api/deals/:id: status, stage, and the two facts agents do not agree on (address, target date). */
export const changeDealInput = z
  .strictObject({
    status: dealStatus.optional(),
    stage: dealStage.optional(),
    propertyAddress: propertyAddress.optional(),
    targetCompletion,
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: 'Send at least one of status, stage, propertyAddress or targetCompletion',
  });
export type ChangeDealInput = z.input<typeof changeDealInput>;

export const dealTimelineEntry = z.object({ at: z.string(), text: z.string() });

/** A deal as the read side serves it (docs/behaviour/deals.md: its parties, fee, source and timeline). */
export const dealView = z.object({
  id: z.string(),
  source: z.enum(['negotiation', 'manual']),
  conversationId: z.number().int().nullable(),
  propertyAddress: z.string(),
  propertyValue: z.number(),
  loanAmount: z.number(),
  ltv: z.number(),
  interestRate: z.number(),
  term: z.number().int(),
  arrangementFee: z.number(),
  status: dealStatus,
  stage: dealStage,
  borrowerName: z.string(),
  lenderName: z.string(),
  brokerName: z.string().nullable(),
  dateCreated: z.string(),
  targetCompletion: z.string().nullable(),
  completedAt: z.string().nullable(),
  updatedAt: z.string(),
  /** The product agreed; null for deals made by hand and before products. */
  product: offeredProduct.nullable(),
  /** The agreed terms' regulated figures (docs/behaviour/deals.md), computed by the read side from the terms and product. */
  figures: offerFiguresView.nullable(),
  /** The lender's procuration fee to the broker who introduced the deal, pounds; null without a broker or before products. */
  procurationFee: z.number().nullable(),
});
export type DealView = z.infer<typeof dealView>;
export const dealList = z.array(dealView);
export const dealDetailView = dealView.extend({ timeline: z.array(dealTimelineEntry) });
export type DealDetailView = z.infer<typeof dealDetailView>;

/** The four figures of the Deals screen (docs/behaviour/deals.md). */
export const dealStatsView = z.object({
  activeDeals: z.number().int(),
  totalValue: z.number(),
  /** Completed over finished (completed or cancelled), whole percent; null before any finishes. */
  completionRate: z.number().int().nullable(),
  /** From opening to completion, in days (one decimal); null before any completes. */
  averageDaysToComplete: z.number().nullable(),
});
export type DealStatsView = z.infer<typeof dealStatsView>;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A route id that is a UUID (deals, documents), named in the error ("Deal id must be ..."). */
export function uuidParams(what: string) {
  return z.object({
    id: z
      .string()
      .regex(UUID_PATTERN, {
        error: (issue) => `${what} id must be a ${what.toLowerCase()}'s id (a UUID), not "${String(issue.input).slice(0, 40)}"`,
      })
      .transform((id) => id.toLowerCase()),
  });
}

/** The answer to New Deal and to a change: the deal's id, and where it stands after the change. */
export const dealCreatedAnswer = z.object({ id: z.string() });
export type DealCreatedAnswer = z.infer<typeof dealCreatedAnswer>;
export const dealChangedAnswer = z.object({ id: z.string(), status: dealStatus, stage: dealStage });
