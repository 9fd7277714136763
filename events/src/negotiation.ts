import { z } from 'zod';

/** The terms agents negotiate over: percentage rate, years, pounds. */
export const loanTerms = z.object({
  interestRate: z.number(),
  termYears: z.number().int(),
  loanAmount: z.number().int(),
  arrangementFee: z.number().int(),
});
export type LoanTerms = z.infer<typeof loanTerms>;

export const CONCESSION_STRATEGIES = ['boulware', 'conceder', 'linear'] as const;
export const concessionStrategy = z.enum(CONCESSION_STRATEGIES);
export type ConcessionStrategy = z.infer<typeof concessionStrategy>;

export const criterionVerdict = z.enum(['meets', 'near', 'fails']);
export const matchExplanation = z.array(
  z.object({ criterion: z.string(), verdict: criterionVerdict, detail: z.string() }),
);
export type MatchExplanation = z.infer<typeof matchExplanation>;
