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

/**
 * Per criterion, as broker sourcing tools show per lender: pass, pass with a warning, or fail. What the services
 * answer says only these (the answer's schema is encoded on the way out, so it holds no one-way transform).
 */
export const CRITERION_VERDICTS = ['pass', 'warn', 'fail'] as const;
export const criterionVerdict = z.enum(CRITERION_VERDICTS);
export type CriterionVerdict = z.infer<typeof criterionVerdict>;
export const matchExplanation = z.array(z.object({ criterion: z.string(), verdict: criterionVerdict, detail: z.string() }));

/**
 * A match's explanation as recorded: older matches were recorded as meets / near / fails, so MatchFound
 * and whatever reads its stored data read those as the same verdicts, and old events stay valid.
 */
const EARLIER_VERDICT: Record<string, CriterionVerdict> = { meets: 'pass', near: 'warn', fails: 'fail' };
export const recordedMatchExplanation = z.array(
  z.object({
    criterion: z.string(),
    verdict: z.preprocess((value) => (typeof value === 'string' ? (EARLIER_VERDICT[value] ?? value) : value), criterionVerdict),
    detail: z.string(),
  }),
);
export type MatchExplanation = z.infer<typeof matchExplanation>;
