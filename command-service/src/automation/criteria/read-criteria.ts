/**
 * Reads an agent's free-text criteria (spec §5: no format checks) into numeric ranges. A value that cannot be
 * read becomes "no limit" and is listed in `unreadable`, so the agent can say so once in its first message.
 */
import type { Criteria, CriteriaKey } from '@pf/events';

/** A bound of null means no limit on that side. */
export interface Range {
  min: number | null;
  max: number | null;
}

export interface ReadCriteria {
  /** Pounds. */
  propertyValue: Range;
  /** Percent per year, e.g. 4.5 for 4.5%. */
  interestRate: Range;
  termYears: Range;
  unreadable: CriteriaKey[];
}

const MONEY = /^(?:£|gbp)?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(k|thousand|m|mn|million|bn|billion)?\s*(?:gbp|pounds?)?$/i;
const MULTIPLIER: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  bn: 1e9,
  billion: 1e9,
};
const RATE = /^(\d+(?:\.\d+)?|\.\d+)\s*(?:%|per\s?cent|pct)?(?:\s*(?:p\.?a\.?|a year|per year|apr))?$/i;
const TERM = /^(\d+(?:\.\d+)?)\s*(years?|yrs?|y|months?|mths?|mos?)?$/i;

/** "£250,000", "250000", "250k", "£1.2m" → pounds; null when it is not an amount. */
export function readMoney(text: string): number | null {
  const match = MONEY.exec(text.trim());
  if (!match?.[1]) return null;
  const digits = match[1].replace(/,/g, '');
  const value = Number(digits) * (match[2] ? (MULTIPLIER[match[2].toLowerCase()] ?? 1) : 1);
  return Number.isFinite(value) ? Math.round(value) : null;
}

/** "4.5%", "4.5", "4.5 per cent" → 4.5; null when it is not a plausible rate (0 to 100). */
export function readRate(text: string): number | null {
  const match = RATE.exec(text.trim());
  if (!match?.[1]) return null;
  const value = Number(match[1]);
  return Number.isFinite(value) && value <= 100 ? value : null;
}

/** "25 years", "25", "300 months" → years; null when it is not a plausible term (above 0, up to 100 years). */
export function readTermYears(text: string): number | null {
  const match = TERM.exec(text.trim());
  if (!match?.[1]) return null;
  const unit = (match[2] ?? 'years').toLowerCase();
  const value = Number(match[1]) / (unit.startsWith('m') ? 12 : 1);
  return Number.isFinite(value) && value > 0 && value <= 100 ? value : null;
}

export function readCriteria(criteria: Criteria | null | undefined): ReadCriteria {
  const unreadable: CriteriaKey[] = [];
  const read = (key: CriteriaKey, reader: (text: string) => number | null): number | null => {
    const text = criteria?.[key]?.trim();
    if (!text) return null;
    const value = reader(text);
    if (value === null) unreadable.push(key);
    return value;
  };
  return {
    propertyValue: ordered(read('propertyValueMin', readMoney), read('propertyValueMax', readMoney)),
    interestRate: ordered(read('interestRateMin', readRate), read('interestRateMax', readRate)),
    termYears: ordered(read('loanTermMin', readTermYears), read('loanTermMax', readTermYears)),
    unreadable,
  };
}

/** People sometimes swap min and max; the range they meant is the same. */
function ordered(min: number | null, max: number | null): Range {
  if (min !== null && max !== null && min > max) return { min: max, max: min };
  return { min, max };
}
