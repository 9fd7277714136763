import { readCriteria } from '@pf/events';

/**
 * A lender's criteria label (Standard / Flexible / Strict / Specialist) from how wide its criteria are, read as
 * the agents read them: a lender of commercial or bridging loans is Specialist; otherwise the spread of its rate
 * range (2 points or more is wide, under 1 narrow) and the ratio of its property value range (5 times or more
 * wide, under 2.5 narrow) weigh for Flexible or Strict; a criterion not stated weighs for neither.
 */
export type LenderCriteriaLabel = 'Standard' | 'Flexible' | 'Strict' | 'Specialist';

export function lenderCriteriaLabel(criteria: unknown): LenderCriteriaLabel {
  const read = readCriteria(criteria && typeof criteria === 'object' ? criteria : null);
  if (read.propertyTypes?.some((type) => type === 'commercial' || type === 'bridging')) return 'Specialist';
  let wide = 0;
  let narrow = 0;
  const rate = read.interestRate;
  if (rate.min !== null && rate.max !== null) {
    const spread = rate.max - rate.min;
    if (spread >= 2) wide += 1;
    else if (spread < 1) narrow += 1;
  }
  const value = read.propertyValue;
  if (value.min !== null && value.max !== null && value.min > 0) {
    const ratio = value.max / value.min;
    if (ratio >= 5) wide += 1;
    else if (ratio < 2.5) narrow += 1;
  }
  return wide > narrow ? 'Flexible' : narrow > wide ? 'Strict' : 'Standard';
}
