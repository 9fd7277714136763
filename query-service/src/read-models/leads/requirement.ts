import type { AgentType, Criteria } from '@pf/events';

const PARTS = [
  ['Property', 'propertyValueMin', 'propertyValueMax'],
  ['Rate', 'interestRateMin', 'interestRateMax'],
  ['Term', 'loanTermMin', 'loanTermMax'],
] as const;

const LEAD = { borrower: 'Needs', lender: 'Lends on', broker: 'Introduces' } as const;

/**
 * A lead's need or appetite in words, from its criteria as they were written ("£250k", "4.5%"): a borrower's
 * need, a lender's appetite, a broker's market. Searchable "by name or requirements" (docs/behaviour/matching.md).
 */
export function describeRequirement(type: AgentType, criteria: Criteria | null): string {
  const parts = PARTS.flatMap(([label, minKey, maxKey]) => {
    const min = criteria?.[minKey];
    const max = criteria?.[maxKey];
    if (min && max) return [`${label} ${min} to ${max}`];
    if (min) return [`${label} from ${min}`];
    if (max) return [`${label} up to ${max}`];
    return [];
  });
  return parts.length === 0 ? `${LEAD[type]}: no criteria given yet` : `${LEAD[type]}: ${parts.join(' · ')}`;
}
