import { z } from 'zod';
import { concessionStrategy } from './negotiation';
import { borrowerNeeds } from './products/needs';
import { productRange } from './products/product';
import { storableText, visibleText } from './text';
import { USER_MESSAGES } from './user-messages';

export const AGENT_TYPES = ['borrower', 'broker', 'lender'] as const;
export const agentType = z.enum(AGENT_TYPES);
export type AgentType = z.infer<typeof agentType>;

/** The six original criteria, shown first in the dialog with their placeholders (docs/behaviour/agents.md). */
export const SPEC_CRITERIA_KEYS = [
  'propertyValueMin',
  'propertyValueMax',
  'interestRateMin',
  'interestRateMax',
  'loanTermMin',
  'loanTermMax',
] as const;

/**
 * Criteria a mortgage broker asks for besides the original six (docs/behaviour/agents.md), still free text: the loan wanted (or the
 * deposit), income, property type, expected rent for buy-to-let, region and maximum loan-to-value.
 */
export const EXTRA_CRITERIA_KEYS = ['loanAmount', 'deposit', 'annualIncome', 'propertyType', 'expectedRent', 'region', 'maxLtv'] as const;

export const CRITERIA_KEYS = [...SPEC_CRITERIA_KEYS, ...EXTRA_CRITERIA_KEYS] as const;
export type CriteriaKey = (typeof CRITERIA_KEYS)[number];

/** Placeholders of the Create Agent dialog (the six's own; examples of how people write the rest). */
export const CRITERIA_PLACEHOLDERS: Record<CriteriaKey, string> = {
  propertyValueMin: '£100,000',
  propertyValueMax: '£1,000,000',
  interestRateMin: '2.5%',
  interestRateMax: '5.0%',
  loanTermMin: '15 years',
  loanTermMax: '30 years',
  loanAmount: '£236,000 or £200k to £240k',
  deposit: '£59,000 or 20%',
  annualIncome: '£65,000',
  propertyType: 'residential, buy-to-let, commercial or bridging',
  expectedRent: '£1,800 a month',
  region: 'london, manchester, birmingham, bristol or leeds',
  maxLtv: '80%',
};

const criterionText = storableText().max(100, { error: 'A criterion is at most 100 characters' });

/** Stored criteria: free text per key (no format or numeric checks: docs/behaviour/agents.md, "Create Agent"). */
export const criteria = z.strictObject(
  Object.fromEntries(CRITERIA_KEYS.map((key) => [key, criterionText.optional()])) as Record<
    CriteriaKey,
    z.ZodOptional<typeof criterionText>
  >,
);
export type Criteria = z.infer<typeof criteria>;

/** Entries that are empty or whitespace are dropped; if none remain, criteria is null. */
export function normaliseCriteria(input: Criteria | null | undefined): Criteria | null {
  if (!input) return null;
  const kept: Criteria = {};
  for (const key of CRITERIA_KEYS) {
    const value = input[key]?.trim();
    if (value) kept[key] = value;
  }
  return Object.keys(kept).length > 0 ? kept : null;
}

/**
 * The agent response time, in hours: while the owner has the agent's side by hand and the other side has
 * spoken, how long the owner may leave it unanswered before the agent takes the side back (response-time.ts).
 */
export const responseTimeHours = z.union([z.literal(1), z.literal(4), z.literal(24), z.literal(48)], {
  error: 'Response time must be 1, 4, 24 or 48 hours',
});

const agentName = visibleText('Agent name', { error: USER_MESSAGES.agentNameRequired })
  .trim()
  .min(1, { error: USER_MESSAGES.agentNameRequired })
  .max(100, { error: 'Agent name is at most 100 characters' });

const agentDescription = storableText().max(2000, { error: 'Description is at most 2,000 characters' });

/** The create-agent form and the POST /api/agents body: one schema for the console and the server. */
export const createAgentInput = z
  .object({
    name: agentName,
    type: z.enum(AGENT_TYPES, { error: USER_MESSAGES.agentTypeRequired }),
    description: agentDescription.optional().transform((value) => value ?? ''),
    criteria: criteria
      .nullable()
      .optional()
      .transform((value) => normaliseCriteria(value)),
    /** How the agent concedes when negotiating; by default Boulware for lenders, Conceder for borrowers. */
    strategy: concessionStrategy.optional(),
    /**
     * Settings → Agent Defaults' auto-negotiate; true when absent. False: the agent is still matched, but each of
     * its conversations opens with its owner's side taken over, so the owner negotiates (and may hand it back).
     */
    autoNegotiate: z.boolean({ error: 'autoNegotiate must be true or false' }).optional(),
    /** Settings → Agent Defaults' response time pre-fills it; absent, a taken-over side stays with its owner. */
    responseTime: responseTimeHours.optional(),
    /** A lender's product range (docs/behaviour/products.md); lenders only. */
    products: productRange.nullable().optional(),
    /** A borrower's needs as a broker records them (docs/behaviour/products.md); borrowers only. */
    needs: borrowerNeeds.nullable().optional(),
  })
  .superRefine((input, ctx) => {
    if (input.products && input.type !== 'lender')
      ctx.addIssue({ code: 'custom', path: ['products'], message: 'Only a lender has products' });
    if (input.needs && input.type !== 'borrower') ctx.addIssue({ code: 'custom', path: ['needs'], message: 'Only a borrower has needs' });
  });
export type CreateAgentInput = z.input<typeof createAgentInput>;
export type CreateAgent = z.output<typeof createAgentInput>;

/** PUT /api/agents/:id: pause or resume (isActive) and edit (name, description, criteria); at least one. */
export const updateAgentInput = z
  .object({
    isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
    name: agentName.optional(),
    description: agentDescription.optional(),
    criteria: criteria
      .nullable()
      .optional()
      .transform((value) => (value === undefined ? undefined : normaliseCriteria(value))),
    strategy: concessionStrategy.optional(),
    /** Lenders only (the agent's type decides; a borrower's is refused naming the field). */
    products: productRange.nullable().optional(),
    /** Borrowers only. */
    needs: borrowerNeeds.nullable().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: 'Send at least one of isActive, name, description, criteria, strategy, products or needs',
  });
export type UpdateAgentInput = z.input<typeof updateAgentInput>;
export type UpdateAgent = z.output<typeof updateAgentInput>;

/** An agent as the read side serves it (docs/behaviour/agents.md). */
export const agentView = z.object({
  id: z.number().int(),
  name: z.string(),
  type: agentType,
  description: z.string().nullable(),
  criteria: criteria.nullable(),
  /** As recorded; null for other types and for agents made before products (productRangeOf upgrades those). */
  products: productRange.nullable(),
  needs: borrowerNeeds.nullable(),
  isActive: z.boolean(),
  strategy: concessionStrategy.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Made by Seed Demo Data: a sandbox agent, which meets only the same firm's demo agents, never a real one
   * (visibility.ts: mayMeet). Absent for a real agent.
   */
  isDemo: z.literal(true).optional(),
});
export type AgentView = z.infer<typeof agentView>;

/** The answer to DELETE /api/agents/:id. */
export const deletedAgentView = z.object({ id: z.number().int() });
export type DeletedAgentView = z.infer<typeof deletedAgentView>;

/** GET /api/agents: the signed-in user's agents, newest first. */
export const agentListView = z.array(agentView);
