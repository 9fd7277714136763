import { z } from 'zod';
import { concessionStrategy } from './negotiation';
import { USER_MESSAGES } from './user-messages';

export const AGENT_TYPES = ['borrower', 'broker', 'lender'] as const;
export const agentType = z.enum(AGENT_TYPES);
export type AgentType = z.infer<typeof agentType>;

export const CRITERIA_KEYS = [
  'propertyValueMin',
  'propertyValueMax',
  'interestRateMin',
  'interestRateMax',
  'loanTermMin',
  'loanTermMax',
] as const;
export type CriteriaKey = (typeof CRITERIA_KEYS)[number];

/** Placeholders of the Create Agent dialog (spec §2). */
export const CRITERIA_PLACEHOLDERS: Record<CriteriaKey, string> = {
  propertyValueMin: '£100,000',
  propertyValueMax: '£1,000,000',
  interestRateMin: '2.5%',
  interestRateMax: '5.0%',
  loanTermMin: '15 years',
  loanTermMax: '30 years',
};

const criterionText = z.string().max(100, { error: 'A criterion is at most 100 characters' });

/** Stored criteria: free text per key (spec §5: no format or numeric checks). */
export const criteria = z.strictObject({
  propertyValueMin: criterionText.optional(),
  propertyValueMax: criterionText.optional(),
  interestRateMin: criterionText.optional(),
  interestRateMax: criterionText.optional(),
  loanTermMin: criterionText.optional(),
  loanTermMax: criterionText.optional(),
});
export type Criteria = z.infer<typeof criteria>;

/** Spec §5: entries that are empty or whitespace are dropped; if none remain, criteria is null. */
export function normaliseCriteria(input: Criteria | null | undefined): Criteria | null {
  if (!input) return null;
  const kept: Criteria = {};
  for (const key of CRITERIA_KEYS) {
    const value = input[key]?.trim();
    if (value) kept[key] = value;
  }
  return Object.keys(kept).length > 0 ? kept : null;
}

const agentName = z
  .string({ error: USER_MESSAGES.agentNameRequired })
  .trim()
  .min(1, { error: USER_MESSAGES.agentNameRequired })
  .max(100, { error: 'Agent name is at most 100 characters' });

const agentDescription = z.string().max(2000, { error: 'Description is at most 2,000 characters' });

/** The create-agent form and the POST /api/agents body: one schema for the console and the server. */
export const createAgentInput = z.object({
  name: agentName,
  type: z.enum(AGENT_TYPES, { error: USER_MESSAGES.agentTypeRequired }),
  description: agentDescription.optional().transform((value) => value ?? ''),
  criteria: criteria
    .nullable()
    .optional()
    .transform((value) => normaliseCriteria(value)),
  /** How the agent concedes when negotiating; by default Boulware for lenders, Conceder for borrowers. */
  strategy: concessionStrategy.optional(),
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
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: 'Send at least one of isActive, name, description, criteria or strategy',
  });
export type UpdateAgentInput = z.input<typeof updateAgentInput>;
export type UpdateAgent = z.output<typeof updateAgentInput>;

/** An agent as the read side serves it (spec §3). */
export const agentView = z.object({
  id: z.number().int(),
  name: z.string(),
  type: agentType,
  description: z.string().nullable(),
  criteria: criteria.nullable(),
  isActive: z.boolean(),
  strategy: concessionStrategy.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AgentView = z.infer<typeof agentView>;
