import type { AgentType, Criteria, CriteriaKey } from '../agent';
import { readMoney, readRate, readShare, readTermYears } from '../read-criteria';
import { plural, pounds } from './money';
import { ltvPercent, ratePercent } from './rates';

/**
 * A criterion as the console shows it: the operator's words read as the agents read them (read-criteria.ts) and
 * written back in the one style ("3.6%" is "3.60%", "£1.5m" is "£1,500,000", "85%" LTV is "85.0%"). Words the
 * agents cannot read are shown as written (the card marks them "Not understood").
 */
export function criterionWords(key: CriteriaKey, text: string): string {
  const written = text.trim();
  const shown = (value: number | null, write: (v: number) => string) => (value === null ? written : write(value));
  switch (key) {
    case 'propertyValueMin':
    case 'propertyValueMax':
    case 'loanAmount':
    case 'annualIncome':
      return shown(readMoney(written), pounds);
    case 'deposit':
      return /%|per\s?cent/i.test(written) ? written : shown(readMoney(written), pounds);
    case 'interestRateMin':
    case 'interestRateMax':
      return shown(readRate(written), ratePercent);
    case 'loanTermMin':
    case 'loanTermMax':
      return shown(readTermYears(written), (years) => (Number.isInteger(years) ? plural(years, 'year') : written));
    case 'maxLtv':
      return shown(readShare(written), (share) => ltvPercent(share * 100));
    default:
      return written;
  }
}

/** The parts of a lead's requirement, each a label and its criteria's lower and upper bounds. */
export const REQUIREMENT_PARTS = [
  ['Property', 'propertyValueMin', 'propertyValueMax'],
  ['Rate', 'interestRateMin', 'interestRateMax'],
  ['Term', 'loanTermMin', 'loanTermMax'],
] as const;

/** How a requirement opens, by the lead's type. */
export const REQUIREMENT_LEAD = { borrower: 'Needs', lender: 'Lends on', broker: 'Introduces' } as const;

/**
 * A lead's need or appetite in words ("Needs: Property … to … · Rate from …"), each criterion written by `words`
 * (null: none given). The console writes them in the one style (requirementWords); the read side keeps them as
 * written, for searching (query-service leads/requirement.ts).
 */
export function requirementIn(
  type: AgentType,
  criteria: Criteria | null,
  words: (key: CriteriaKey, written: string | undefined) => string | null,
): string {
  const parts = REQUIREMENT_PARTS.flatMap(([label, minKey, maxKey]) => {
    const min = words(minKey, criteria?.[minKey]);
    const max = words(maxKey, criteria?.[maxKey]);
    if (min && max) return [`${label} ${min} to ${max}`];
    if (min) return [`${label} from ${min}`];
    if (max) return [`${label} up to ${max}`];
    return [];
  });
  return parts.length === 0 ? `${REQUIREMENT_LEAD[type]}: no criteria given yet` : `${REQUIREMENT_LEAD[type]}: ${parts.join(' · ')}`;
}

/** A lead's need or appetite in the one style: "Needs: Property £250,000 to £500,000 · Rate 3.50% to 5.00%". */
export function requirementWords(type: AgentType, criteria: Criteria | null): string {
  return requirementIn(type, criteria, (key, written) => (written?.trim() ? criterionWords(key, written) : null));
}
