/**
 * Reads an agent's free-text criteria (no format checks: docs/behaviour/agents.md) into numbers, lists and ranges. A value that
 * cannot be read becomes "no limit" and is listed in `unreadable`, so the agent card shows it back as "not
 * understood" and the agent says so once in its first message. Shared by the console and the automated agents,
 * so what the card calls understood is exactly what the agents act on.
 */
import { CRITERIA_KEYS, type Criteria, type CriteriaKey } from './agent';

/** A bound of null means no limit on that side. */
export interface Range {
  min: number | null;
  max: number | null;
}

export const PROPERTY_TYPES = ['residential', 'buy-to-let', 'commercial', 'bridging'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export const REGIONS = ['london', 'manchester', 'birmingham', 'bristol', 'leeds'] as const;
export type Region = (typeof REGIONS)[number];

/** A deposit in pounds or as a share of the price (0.2 for "20%"). */
export type Deposit = { pounds: number } | { share: number };

export interface ReadCriteria {
  /** Pounds. */
  propertyValue: Range;
  /** Percent per year, e.g. 4.5 for 4.5%. */
  interestRate: Range;
  termYears: Range;
  /** Pounds. A single amount is {min: it, max: null}: a borrower's need, or (with "up to") a lender's cap. */
  loanAmount: Range;
  /** True when the text named both ends ("£200k to £240k"): a borrower who does is flexible between them. */
  loanAmountIsRange: boolean;
  deposit: Deposit | null;
  annualIncome: number | null;
  /** Null: not stated (a borrower is then residential; a lender lends on any type). */
  propertyTypes: PropertyType[] | null;
  /** Pounds a month. */
  expectedRentMonthly: number | null;
  /** Null: not stated, or "any"/"nationwide". */
  regions: Region[] | null;
  /** Share of the property value, e.g. 0.8 for "80%". */
  maxLtv: number | null;
  unreadable: CriteriaKey[];
}

const AMOUNT = String.raw`(?:£|gbp)?\s*(?:\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?:k|thousand|m|mn|million|bn|billion)?\s*(?:gbp|pounds?)?`;
const MONEY = /^(?:£|gbp)?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(k|thousand|m|mn|million|bn|billion)?\s*(?:gbp|pounds?)?$/i;
const MONEY_RANGE = new RegExp(String.raw`^(?:between\s+)?(${AMOUNT})\s*(?:-|–|—|to|and)\s*(${AMOUNT})$`, 'i');
const UP_TO = new RegExp(String.raw`^(?:up\s*to|max(?:imum)?|no more than|under|below)\s*:?\s*(${AMOUNT})$`, 'i');
const FROM = new RegExp(String.raw`^(?:(?:from|min(?:imum)?|at least|over|above)\s*:?\s*(${AMOUNT})|(${AMOUNT})\s*(?:\+|or more))$`, 'i');
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
const PERCENT = /^(\d+(?:\.\d+)?)\s*(%|per\s?cent)?(?:\s*ltv)?$/i;
const RENT = new RegExp(String.raw`^(${AMOUNT})\s*(?:(?:a|per|\/)\s*(month|mo|calendar month|year|annum|yr)|(pcm|pm|pa|p\.a\.))?$`, 'i');

/** "£250,000", "250000", "250k", "£1.2m" → pounds; null when it is not an amount. */
export function readMoney(text: string): number | null {
  const match = MONEY.exec(text.trim());
  if (!match?.[1]) return null;
  const digits = match[1].replace(/,/g, '');
  const value = Number(digits) * (match[2] ? (MULTIPLIER[match[2].toLowerCase()] ?? 1) : 1);
  return Number.isFinite(value) ? Math.round(value) : null;
}

/** "£236,000" (min only), "£200k to £240k", "up to £500k", "from £50k": pounds; null when unreadable. */
export function readMoneyRange(text: string): { range: Range; isRange: boolean } | null {
  const trimmed = text.trim();
  const single = readMoney(trimmed);
  if (single !== null) return { range: { min: single, max: null }, isRange: false };
  const both = MONEY_RANGE.exec(trimmed);
  if (both?.[1] && both[2]) {
    const lo = readMoney(both[1]);
    const hi = readMoney(both[2]);
    if (lo !== null && hi !== null) return { range: ordered(lo, hi), isRange: true };
  }
  const upTo = UP_TO.exec(trimmed);
  const cap = upTo?.[1] ? readMoney(upTo[1]) : null;
  if (cap !== null) return { range: { min: null, max: cap }, isRange: true };
  const from = FROM.exec(trimmed);
  const floor = from ? readMoney(from[1] ?? from[2] ?? '') : null;
  if (floor !== null) return { range: { min: floor, max: null }, isRange: true };
  return null;
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

/** "80%", "80", "80% LTV", "0.8" → 0.8; null unless above 0 and at most 100%. */
export function readShare(text: string): number | null {
  const match = PERCENT.exec(text.trim());
  if (!match?.[1]) return null;
  const value = Number(match[1]);
  const share = !match[2] && value <= 1 ? value : value / 100;
  return Number.isFinite(share) && share > 0 && share <= 1 ? share : null;
}

/** "£59,000" or "20%" (a share of the price). */
export function readDeposit(text: string): Deposit | null {
  const pounds = readMoney(text);
  if (pounds !== null) return { pounds };
  const share = /%|per\s?cent/i.test(text) ? readShare(text) : null;
  return share !== null && share < 1 ? { share } : null;
}

/** "£1,800 a month", "£1,800 pcm", "£21,600 a year" → pounds a month; a bare amount over £10,000 is yearly. */
export function readMonthlyRent(text: string): number | null {
  const match = RENT.exec(text.trim());
  const amount = match?.[1] ? readMoney(match[1]) : null;
  if (amount === null || amount <= 0) return null;
  const unit = (match?.[2] ?? match?.[3] ?? '').toLowerCase();
  const yearly = /^(year|annum|yr|pa|p\.a\.)$/.test(unit) || (unit === '' && amount > 10_000);
  return Math.round(yearly ? amount / 12 : amount);
}

const TYPE_WORDS: Array<[RegExp, PropertyType]> = [
  [/^(residential|home|house|flat|owner[- ]occupier|main residence)$/i, 'residential'],
  [/^(buy[- ]to[- ]let|btl|rental|let)$/i, 'buy-to-let'],
  [/^(commercial|office|retail|shop|industrial)$/i, 'commercial'],
  [/^(bridging|bridge|bridging loan)$/i, 'bridging'],
];

/** "residential", "BTL", "residential, buy-to-let" → types; "any" → null; null list when any word is unknown. */
export function readPropertyTypes(text: string): PropertyType[] | null | 'any' {
  return readList(text, (word) => TYPE_WORDS.find(([pattern]) => pattern.test(word))?.[1] ?? null);
}

/** "London", "leeds and bristol", "nationwide" → regions; null when any name is not one we serve. */
export function readRegions(text: string): Region[] | null | 'any' {
  return readList(text, (word) => REGIONS.find((region) => region === word.toLowerCase()) ?? null);
}

function readList<T>(text: string, read: (word: string) => T | null): T[] | null | 'any' {
  const trimmed = text.trim();
  if (/^(any|all|anywhere|nationwide|uk|england|uk[- ]wide|england and wales)$/i.test(trimmed)) return 'any';
  const words = trimmed.split(/\s*(?:,|;|\/|\band\b|\bor\b|&)\s*/i).filter(Boolean);
  const values = words.map(read);
  if (values.length === 0 || values.some((value) => value === null)) return null;
  return [...new Set(values as T[])];
}

export function readCriteria(criteria: Criteria | null | undefined): ReadCriteria {
  const unreadable: CriteriaKey[] = [];
  const read = <T>(key: CriteriaKey, reader: (text: string) => T | null): T | null => {
    const text = criteria?.[key]?.trim();
    if (!text) return null;
    const value = reader(text);
    if (value === null) unreadable.push(key);
    return value;
  };
  const loan = read('loanAmount', readMoneyRange);
  const types = read('propertyType', readPropertyTypes);
  const regions = read('region', readRegions);
  return {
    propertyValue: orderedRange(read('propertyValueMin', readMoney), read('propertyValueMax', readMoney)),
    interestRate: orderedRange(read('interestRateMin', readRate), read('interestRateMax', readRate)),
    termYears: orderedRange(read('loanTermMin', readTermYears), read('loanTermMax', readTermYears)),
    loanAmount: loan?.range ?? { min: null, max: null },
    loanAmountIsRange: loan?.isRange ?? false,
    deposit: read('deposit', readDeposit),
    annualIncome: read('annualIncome', readMoney),
    propertyTypes: types === 'any' ? null : types,
    expectedRentMonthly: read('expectedRent', readMonthlyRent),
    regions: regions === 'any' ? null : regions,
    maxLtv: read('maxLtv', readShare),
    unreadable: CRITERIA_KEYS.filter((key) => unreadable.includes(key)),
  };
}

/** The criteria the card shows back as "not understood". */
export function unreadableCriteria(criteria: Criteria | null | undefined): CriteriaKey[] {
  return readCriteria(criteria).unreadable;
}

/** People sometimes swap min and max; the range they meant is the same. */
function orderedRange(min: number | null, max: number | null): Range {
  return min !== null && max !== null ? ordered(min, max) : { min, max };
}

function ordered(a: number, b: number): Range {
  return a > b ? { min: b, max: a } : { min: a, max: b };
}
