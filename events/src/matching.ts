import { z } from 'zod';
import { routeIdParam } from './http';
import { agentType, criteria } from './agent';
import { criterionVerdict } from './negotiation';
import { sourcingResult } from './products/sourcing';

/** Lead urgency and status; match status and stage. */
export const LEAD_URGENCIES = ['high', 'medium', 'low'] as const;
export const leadUrgency = z.enum(LEAD_URGENCIES);
export type LeadUrgency = z.infer<typeof leadUrgency>;
export const LEAD_STATUSES = ['active', 'matched', 'cancelled'] as const;
export const leadStatus = z.enum(LEAD_STATUSES);
export type LeadStatus = z.infer<typeof leadStatus>;

/** Spec's three, plus `closed` for a negotiation that ended without terms or a deal that was cancelled. */
export const MATCH_STATUSES = ['active', 'progressing', 'completed', 'closed'] as const;
export const matchStatus = z.enum(MATCH_STATUSES);
export type MatchStatus = z.infer<typeof matchStatus>;
export const MATCH_STAGES = ['negotiation', 'documentation', 'completed'] as const;
export const matchStage = z.enum(MATCH_STAGES);
export type MatchStage = z.infer<typeof matchStage>;

/** One of the user's agents seen as a lead: a borrower's need, a lender's appetite, a broker's market. */
export const leadView = z.object({
  id: z.number().int(),
  type: agentType,
  name: z.string(),
  /** "Property £250,000 to £500,000 · Rate 3.5% to 5% · Term 20 years to 30 years", from the criteria as written. */
  requirement: z.string(),
  criteria: criteria.nullable(),
  urgency: leadUrgency,
  status: leadStatus,
  /** The best score of its matches; null before any. */
  matchScore: z.number().nullable(),
  matchCount: z.number().int(),
  createdDate: z.string(),
  lastContact: z.string().nullable(),
  /** The last time Match was pressed, and what the matcher answered (null while it works or before any). */
  lastMatchRun: z
    .object({ requestedAt: z.string(), finishedAt: z.string().nullable(), newMatches: z.number().int().nullable() })
    .nullable(),
  /** A borrower's products as its last Match sourced them, best first (docs/behaviour/products.md); null before any. */
  sourcing: sourcingResult.nullable().optional(),
  /** Made by Seed Demo Data: it meets only the same firm's demo agents (visibility.ts: mayMeet). Absent: a real agent. */
  isDemo: z.literal(true).optional(),
});
export type LeadView = z.infer<typeof leadView>;
export const leadList = z.array(leadView);

export const matchCriterionView = z.object({ criterion: z.string(), verdict: criterionVerdict, detail: z.string() });

/** A match as the Active Matches tab shows it, with the matcher's reasons per criterion. */
export const matchView = z.object({
  id: z.string(),
  borrower: z.string(),
  lender: z.string(),
  broker: z.string().nullable(),
  borrowerAgentId: z.number().int(),
  lenderAgentId: z.number().int(),
  /** The agreed loan once terms are agreed; null while they negotiate. */
  loanAmount: z.number().nullable(),
  matchScore: z.number(),
  status: matchStatus,
  stage: matchStage,
  conversationId: z.number().int().nullable(),
  dealId: z.string().nullable(),
  explanation: z.array(matchCriterionView),
  createdDate: z.string(),
  estimatedCompletion: z.string().nullable(),
});
export type MatchView = z.infer<typeof matchView>;
export const matchList = z.array(matchView);

/** The four figures of Matching & Leads (docs/behaviour/matching.md, "Figures"). */
export const matchingStatsView = z.object({
  activeLeads: z.number().int(),
  successfulMatches: z.number().int(),
  /** Agreed over finished negotiations of matches, whole percent; null before any finishes. */
  successRate: z.number().nullable(),
  averageMatchScore: z.number().int().nullable(),
});
export type MatchingStatsView = z.infer<typeof matchingStatsView>;

/** The answer to Match: the request is recorded; the matcher answers on the lead (lastMatchRun). */
export const matchRequestAnswer = z.object({ requestId: z.string() });
export type MatchRequestAnswer = z.infer<typeof matchRequestAnswer>;

/** GET /api/leads/:id/match/:requestId: where one Match stands (the 202's outcome), with the matcher's note when it found none. */
export const matchRunView = z.object({
  requestId: z.string(),
  agentId: z.number().int(),
  status: z.enum(['requested', 'answered']),
  requestedAt: z.string(),
  answeredAt: z.string().nullable(),
  newMatches: z.number().int().nullable(),
  note: z.string().nullable(),
});
export type MatchRunView = z.infer<typeof matchRunView>;
export const matchRunParams = z.object({
  id: routeIdParam('Agent'),
  requestId: z.string().uuid({ error: 'requestId must be the id Match answered with' }),
});

export const matchRequested = z.object({
  type: z.literal('MatchRequested'),
  data: z.object({ requestId: z.string().uuid(), agentId: z.number().int().positive(), ownerId: z.string() }),
});
export const matchRunCompleted = z.object({
  type: z.literal('MatchRunCompleted'),
  data: z.object({
    requestId: z.string().uuid(),
    agentId: z.number().int().positive(),
    matchIds: z.array(z.string()),
    /** Why nothing was matched, in words, when nothing was. */
    note: z.string().nullable(),
    /** A borrower's sourcing at the time (docs/behaviour/products.md); absent for other agents and older events. */
    sourcing: sourcingResult.optional(),
  }),
});

/** 90 and above green, 80 and above blue, 70 and above yellow, below 70 red. */
export function scoreBand(score: number): 'green' | 'blue' | 'yellow' | 'red' {
  if (score >= 90) return 'green';
  if (score >= 80) return 'blue';
  if (score >= 70) return 'yellow';
  return 'red';
}
