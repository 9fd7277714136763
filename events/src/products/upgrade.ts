/**
 * The one place an agent's structured profile is read (docs/behaviour/products.md, "Older agents"): a lender's
 * product range and a borrower's needs as recorded, or, for an agent made before they existed, upgraded from its
 * free-text criteria as the criteria reader understands them. Nothing is invented: what the criteria do not say is
 * left out (no fee, no early repayment charges, no procuration fee, a reversion to the initial rate), and an agent
 * whose criteria say too little to source on has no profile (null).
 */
import type { AgentType, Criteria } from '../agent';
import { readCriteria, type ReadCriteria } from '../read-criteria';
import { MAX_AGE_AT_TERM_END, type BorrowerNeeds } from './needs';
import type { MortgagePurpose, ProductRange } from './product';

interface Profiled {
  type: AgentType;
  criteria: Criteria | null;
  products?: ProductRange | null;
  needs?: BorrowerNeeds | null;
}

export function productRangeOf(agent: Profiled): ProductRange | null {
  if (agent.type !== 'lender') return null;
  return agent.products ?? rangeFromCriteria(readCriteria(agent.criteria));
}

export function needsOf(agent: Profiled): BorrowerNeeds | null {
  if (agent.type !== 'borrower') return null;
  return agent.needs ?? needsFromCriteria(readCriteria(agent.criteria));
}

function rangeFromCriteria(read: ReadCriteria): ProductRange | null {
  const asking = read.interestRate.max ?? read.interestRate.min;
  if (asking === null) return null;
  const floor = read.interestRate.min ?? asking;
  const maxLtvPercent = Math.round((read.maxLtv ?? 0.8) * 10_000) / 100;
  const ceiling =
    read.loanAmount.max ?? (read.propertyValue.max !== null ? Math.floor((read.propertyValue.max * maxLtvPercent) / 100) : 100_000_000);
  return {
    procurationFeePercent: 0,
    maxAgeAtTermEnd: MAX_AGE_AT_TERM_END,
    products: [
      {
        id: 'criteria',
        name: 'Rate from the criteria',
        type: 'fixed',
        purposes: purposesOf(read),
        initialPeriodMonths: 24,
        rates: [{ maxLtvPercent, ratePercent: asking }],
        reversionRatePercent: asking,
        fee: { kind: 'pounds', pounds: 0 },
        ercPercentByYear: [0, 0],
        minLoanPounds: Math.min(read.loanAmount.min ?? 0, ceiling),
        maxLoanPounds: Math.min(ceiling, 100_000_000),
        discretion: {
          rateReductionPercent: Math.min(1, Math.round((asking - floor) * 100) / 100),
          feeReductionPounds: 0,
          cashbackPounds: 0,
        },
      },
    ],
  };
}

function purposesOf(read: ReadCriteria): MortgagePurpose[] {
  if (read.propertyTypes === null) return ['purchase', 'remortgage', 'buy-to-let'];
  const purposes: MortgagePurpose[] = [];
  if (read.propertyTypes.includes('residential')) purposes.push('purchase', 'remortgage');
  if (read.propertyTypes.includes('buy-to-let')) purposes.push('buy-to-let');
  return purposes.length > 0 ? purposes : ['purchase', 'remortgage'];
}

function needsFromCriteria(read: ReadCriteria): BorrowerNeeds | null {
  const { loanAmount, deposit, propertyValue: range } = read;
  const named = loanAmount.min ?? loanAmount.max;
  const priced = deposit && 'pounds' in deposit && named !== null ? named + deposit.pounds : null;
  const propertyValue = priced ?? range.max ?? range.min;
  if (propertyValue === null || propertyValue <= 0) return null;
  const loan =
    named ?? (deposit ? ('pounds' in deposit ? propertyValue - deposit.pounds : Math.round(propertyValue * (1 - deposit.share))) : null);
  if (loan === null || loan <= 0 || loan > propertyValue) return null;
  return needsOnCriteria(read, propertyValue, loan);
}

/**
 * A borrower's needs for this loan on this property, the rest as its criteria say: over the longest term they allow
 * (else 25 years; 5 to 40), a purchase (buy-to-let when that is its first property type), repayment, the fee paid,
 * and the income and rent they name.
 */
export function needsOnCriteria(read: ReadCriteria, propertyValue: number, loanAmount: number): BorrowerNeeds {
  const buyToLet = read.propertyTypes?.[0] === 'buy-to-let';
  const term = Math.round(read.termYears.max ?? read.termYears.min ?? 25);
  return {
    propertyValue,
    loanAmount,
    termYears: Math.min(40, Math.max(5, term)),
    purpose: buyToLet ? 'buy-to-let' : 'purchase',
    repaymentType: 'repayment',
    fee: 'paid',
    monthlyCommitments: 0,
    ...(read.annualIncome !== null ? { annualIncome: read.annualIncome } : {}),
    ...(read.expectedRentMonthly !== null ? { expectedMonthlyRent: read.expectedRentMonthly } : {}),
  };
}
