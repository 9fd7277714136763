import type { AgentType, BorrowerNeeds, Criteria, ProductRange } from '@pf/events';
import { DEMO_NEEDS, DEMO_RANGES } from './demo-products';

export interface DemoAgent {
  readonly key: string;
  readonly name: string;
  readonly type: AgentType;
  readonly description: string;
  readonly criteria: Criteria | null;
  /** A lender's range, a borrower's needs (demo-products.ts); the criteria still carry region and property type. */
  readonly products?: ProductRange;
  readonly needs?: BorrowerNeeds;
}

/**
 * Borrowers, a broker and lenders written as a broker's client notes would read (docs/behaviour/agents.md: loan or deposit,
 * income, property type, rent, region, maximum LTV). Some pairs fit and some fail a lender's rule, so the
 * automated agents reach agreements, walk away, and one borrower talks to two lenders at once and withdraws
 * from one when it agrees with the other.
 */
const DEMO_AGENTS_WRITTEN: readonly DemoAgent[] = [
  {
    key: 'amelia',
    name: 'Amelia Hart',
    type: 'borrower',
    description: 'First-time buyer: £236,000 on a £295,000 two-bedroom flat in Leeds.',
    criteria: {
      propertyValueMin: '£250,000',
      propertyValueMax: '£340,000',
      interestRateMin: '3.5%',
      interestRateMax: '4.9%',
      loanTermMin: '25 years',
      loanTermMax: '35 years',
      loanAmount: '£236,000',
      deposit: '£59,000',
      annualIncome: '£58,000',
      propertyType: 'residential',
      region: 'Leeds',
    },
  },
  {
    key: 'oliver',
    name: 'Oliver Bennett',
    type: 'borrower',
    description: 'Portfolio landlord refinancing a buy-to-let terrace in Manchester.',
    criteria: {
      propertyValueMin: '£450k',
      propertyValueMax: '£700k',
      interestRateMin: '4.0%',
      interestRateMax: '5.6%',
      loanTermMin: '15 years',
      loanTermMax: '25 years',
      loanAmount: '£392,000',
      deposit: '£168,000',
      propertyType: 'buy-to-let',
      expectedRent: '£2,600 a month',
      region: 'Manchester',
    },
  },
  {
    key: 'priya',
    name: 'Priya Shah',
    type: 'borrower',
    description: 'Remortgaging a family home in Bristol; will not pay more than 3.85%.',
    criteria: {
      propertyValueMin: '£300,000',
      propertyValueMax: '£360,000',
      interestRateMin: '3.2%',
      interestRateMax: '3.85%',
      loanTermMin: '20 years',
      loanTermMax: '25 years',
      loanAmount: '£240,000',
      deposit: '£90,000',
      annualIncome: '£70,000',
      propertyType: 'residential',
      region: 'Bristol',
    },
  },
  {
    key: 'thames',
    name: 'Thames Valley Mortgage Partners',
    type: 'broker',
    description: 'Whole-of-market broker introducing residential and buy-to-let clients.',
    criteria: null,
  },
  {
    key: 'northgate',
    name: 'Northgate Building Society',
    type: 'lender',
    description: 'Mutual lender for owner-occupiers across the North of England.',
    criteria: {
      propertyValueMin: '£150,000',
      propertyValueMax: '£600,000',
      interestRateMin: '3.9%',
      interestRateMax: '5.4%',
      loanTermMin: '10 years',
      loanTermMax: '35 years',
      propertyType: 'residential',
      region: 'Leeds, Manchester',
      maxLtv: '90%',
    },
  },
  {
    key: 'harbour',
    name: 'Harbour Street Bank',
    type: 'lender',
    description: 'Specialist buy-to-let and larger-loan lender.',
    criteria: {
      propertyValueMin: '£400,000',
      propertyValueMax: '£2m',
      interestRateMin: '4.3%',
      interestRateMax: '6.1%',
      loanTermMin: '5 years',
      loanTermMax: '25 years',
      propertyType: 'residential, buy-to-let',
      maxLtv: '75%',
    },
  },
  {
    key: 'pennine',
    name: 'Pennine Mutual',
    type: 'lender',
    description: 'Conservative regional lender with strict affordability checks.',
    criteria: {
      propertyValueMin: '£100,000',
      propertyValueMax: '£450,000',
      interestRateMin: '4.4%',
      interestRateMax: '5.2%',
      loanTermMin: '15 years',
      loanTermMax: '30 years',
      propertyType: 'residential',
      maxLtv: '80%',
    },
  },
  {
    key: 'capital',
    name: 'Capital & Counties Bank',
    type: 'lender',
    description: 'Keenly priced residential and buy-to-let lending in London, Bristol and Birmingham.',
    criteria: {
      propertyValueMin: '£200,000',
      propertyValueMax: '£1.5m',
      interestRateMin: '3.6%',
      interestRateMax: '5.0%',
      loanTermMin: '10 years',
      loanTermMax: '30 years',
      propertyType: 'residential, buy-to-let',
      region: 'London, Bristol, Birmingham',
      maxLtv: '85%',
    },
  },
];

export const DEMO_AGENTS: readonly DemoAgent[] = DEMO_AGENTS_WRITTEN.map((agent) => {
  const products = DEMO_RANGES[agent.key];
  const needs = DEMO_NEEDS[agent.key];
  return { ...agent, ...(products ? { products } : {}), ...(needs ? { needs } : {}) };
});

export interface DemoConversation {
  readonly title: string;
  readonly participants: readonly string[];
  readonly messages: readonly { from: string; content: string }[];
}

/** Two conversations already under way, so the screens have something to show at once. */
export const DEMO_CONVERSATIONS: readonly DemoConversation[] = [
  {
    title: 'Amelia Hart ↔ Northgate Building Society · £295,000',
    participants: ['amelia', 'northgate'],
    messages: [
      {
        from: 'amelia',
        content: 'Hello, I am looking to borrow £236,000 against a £295,000 flat in Leeds over 30 years. What could you offer?',
      },
      {
        from: 'northgate',
        content:
          'Thank you, Amelia. For a first-time buyer at that value we would start at 4.85% over 30 years with a £999 arrangement fee.',
      },
      { from: 'amelia', content: 'That is above what I hoped for. Could you come closer to 4.2% if I keep the term at 30 years?' },
    ],
  },
  {
    title: 'Oliver Bennett ↔ Harbour Street Bank · £560,000',
    participants: ['oliver', 'thames', 'harbour'],
    messages: [
      {
        from: 'thames',
        content:
          'Good morning both. Oliver is refinancing a buy-to-let terrace valued at £560,000; Harbour Street lends in this range, so I thought an introduction worthwhile.',
      },
      {
        from: 'harbour',
        content: 'Thanks for the introduction. On a 20-year term we could look at 5.6% with a £1,495 fee, subject to rental cover.',
      },
    ],
  },
];
