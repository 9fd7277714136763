import type { BorrowerNeeds, MortgagePurpose, Product, ProductRange, ProductType } from '@pf/events';

/**
 * The agent form's structured profile (docs/behaviour/products.md): a lender's products and a borrower's needs,
 * held as the text typed into each number box and turned into the contract's shapes for the shared schema to
 * validate. Nothing is free text: every box is one number, every choice a select.
 */
interface BandForm {
  maxLtvPercent: string;
  ratePercent: string;
}

export interface ProductForm {
  id: string;
  name: string;
  type: ProductType;
  purposes: MortgagePurpose[];
  initialPeriodYears: string;
  bands: BandForm[];
  reversionRatePercent: string;
  feeKind: 'pounds' | 'percent';
  fee: string;
  feeMinimumPounds: string;
  feeFreePremiumPercent: string;
  ercPercentByYear: string[];
  minLoanPounds: string;
  maxLoanPounds: string;
  rateReductionPercent: string;
  lowLtvPercent: string;
  largeLoanPounds: string;
  feeReductionPounds: string;
  cashbackPounds: string;
}

export interface RangeForm {
  procurationFeePercent: string;
  maxAgeAtTermEnd: string;
  products: ProductForm[];
}

/** The needs typed as numbers, one box each. */
export type NeedsNumberKey =
  | 'propertyValue'
  | 'loanAmount'
  | 'termYears'
  | 'ageYears'
  | 'maxFeePounds'
  | 'annualIncome'
  | 'monthlyCommitments'
  | 'expectedMonthlyRent';
export type NeedsForm = Record<NeedsNumberKey, string> &
  Pick<BorrowerNeeds, 'purpose' | 'repaymentType' | 'fee'> & { preferredInitialPeriodMonths: string };

/** A product's single-number boxes. */
export type ProductNumberKey =
  | 'reversionRatePercent'
  | 'fee'
  | 'feeMinimumPounds'
  | 'feeFreePremiumPercent'
  | 'minLoanPounds'
  | 'maxLoanPounds'
  | 'rateReductionPercent'
  | 'lowLtvPercent'
  | 'largeLoanPounds'
  | 'feeReductionPounds'
  | 'cashbackPounds';

const text = (value: number | undefined) => (value === undefined ? '' : String(value));
/** A box left empty is absent; anything else is read as a number (the schema names what is wrong with it). */
const number = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value.trim().replace(/,/g, '')));
const required = (value: string): number => number(value) ?? Number.NaN;

export function emptyProduct(index: number): ProductForm {
  return {
    id: `product-${index + 1}`,
    name: '',
    type: 'fixed',
    purposes: ['purchase', 'remortgage'],
    initialPeriodYears: '2',
    bands: [{ maxLtvPercent: '', ratePercent: '' }],
    reversionRatePercent: '',
    feeKind: 'pounds',
    fee: '0',
    feeMinimumPounds: '0',
    feeFreePremiumPercent: '',
    ercPercentByYear: ['', ''],
    minLoanPounds: '25000',
    maxLoanPounds: '1000000',
    rateReductionPercent: '0',
    lowLtvPercent: '',
    largeLoanPounds: '',
    feeReductionPounds: '0',
    cashbackPounds: '0',
  };
}

export const emptyRange = (): RangeForm => ({ procurationFeePercent: '0.35', maxAgeAtTermEnd: '75', products: [emptyProduct(0)] });

export const emptyNeeds = (): NeedsForm => ({
  propertyValue: '',
  loanAmount: '',
  termYears: '25',
  ageYears: '',
  purpose: 'purchase',
  repaymentType: 'repayment',
  preferredInitialPeriodMonths: '',
  fee: 'paid',
  maxFeePounds: '',
  annualIncome: '',
  monthlyCommitments: '0',
  expectedMonthlyRent: '',
});

export function rangeForm(range: ProductRange): RangeForm {
  return {
    procurationFeePercent: text(range.procurationFeePercent),
    maxAgeAtTermEnd: text(range.maxAgeAtTermEnd),
    products: range.products.map((p) => ({
      id: p.id,
      name: p.name,
      type: p.type,
      purposes: p.purposes,
      initialPeriodYears: text(p.initialPeriodMonths / 12),
      bands: p.rates.map((band) => ({ maxLtvPercent: text(band.maxLtvPercent), ratePercent: text(band.ratePercent) })),
      reversionRatePercent: text(p.reversionRatePercent),
      feeKind: p.fee.kind,
      fee: text(p.fee.kind === 'pounds' ? p.fee.pounds : p.fee.percent),
      feeMinimumPounds: text(p.fee.kind === 'percent' ? p.fee.minimumPounds : 0),
      feeFreePremiumPercent: text(p.feeFreePremiumPercent),
      ercPercentByYear: p.ercPercentByYear.map(text),
      minLoanPounds: text(p.minLoanPounds),
      maxLoanPounds: text(p.maxLoanPounds),
      rateReductionPercent: text(p.discretion.rateReductionPercent),
      lowLtvPercent: text(p.discretion.lowLtvPercent),
      largeLoanPounds: text(p.discretion.largeLoanPounds),
      feeReductionPounds: text(p.discretion.feeReductionPounds),
      cashbackPounds: text(p.discretion.cashbackPounds),
    })),
  };
}

export function needsForm(needs: BorrowerNeeds): NeedsForm {
  return {
    propertyValue: text(needs.propertyValue),
    loanAmount: text(needs.loanAmount),
    termYears: text(needs.termYears),
    ageYears: text(needs.ageYears),
    purpose: needs.purpose,
    repaymentType: needs.repaymentType,
    preferredInitialPeriodMonths: text(needs.preferredInitialPeriodMonths),
    fee: needs.fee,
    maxFeePounds: text(needs.maxFeePounds),
    annualIncome: text(needs.annualIncome),
    monthlyCommitments: text(needs.monthlyCommitments),
    expectedMonthlyRent: text(needs.expectedMonthlyRent),
  };
}

const optional = <K extends string>(key: K, value: string) => {
  const read = number(value);
  return read === undefined ? {} : ({ [key]: read } as Record<K, number>);
};

/** The range the form describes, for the shared schema to validate (unchecked here: a NaN is refused there, naming the box). */
export function toRange(form: RangeForm): ProductRange {
  return {
    procurationFeePercent: required(form.procurationFeePercent),
    maxAgeAtTermEnd: required(form.maxAgeAtTermEnd),
    products: form.products.map(toProduct),
  };
}

function toProduct(p: ProductForm): Product {
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    purposes: p.purposes,
    initialPeriodMonths: required(p.initialPeriodYears) * 12,
    rates: p.bands.map((band) => ({ maxLtvPercent: required(band.maxLtvPercent), ratePercent: required(band.ratePercent) })),
    reversionRatePercent: required(p.reversionRatePercent),
    fee:
      p.feeKind === 'pounds'
        ? { kind: 'pounds', pounds: required(p.fee) }
        : { kind: 'percent', percent: required(p.fee), minimumPounds: required(p.feeMinimumPounds) },
    ...optional('feeFreePremiumPercent', p.feeFreePremiumPercent),
    ercPercentByYear: p.ercPercentByYear.map(required),
    minLoanPounds: required(p.minLoanPounds),
    maxLoanPounds: required(p.maxLoanPounds),
    discretion: {
      rateReductionPercent: required(p.rateReductionPercent),
      ...optional('lowLtvPercent', p.lowLtvPercent),
      ...optional('largeLoanPounds', p.largeLoanPounds),
      feeReductionPounds: required(p.feeReductionPounds),
      cashbackPounds: required(p.cashbackPounds),
    },
  };
}

export function toNeeds(form: NeedsForm): BorrowerNeeds {
  return {
    propertyValue: required(form.propertyValue),
    loanAmount: required(form.loanAmount),
    termYears: required(form.termYears),
    ...optional('ageYears', form.ageYears),
    purpose: form.purpose,
    repaymentType: form.repaymentType,
    ...optional('preferredInitialPeriodMonths', form.preferredInitialPeriodMonths),
    fee: form.fee,
    ...optional('maxFeePounds', form.maxFeePounds),
    ...optional('annualIncome', form.annualIncome),
    monthlyCommitments: required(form.monthlyCommitments),
    ...optional('expectedMonthlyRent', form.expectedMonthlyRent),
  };
}

/** One ERC box per year of the initial period, keeping those already typed. */
export function withErcYears(product: ProductForm, years: string): ProductForm {
  const count = Math.max(0, Math.min(10, Math.floor(Number(years) || 0)));
  const ercs = Array.from({ length: count }, (_, i) => product.ercPercentByYear[i] ?? '');
  return { ...product, initialPeriodYears: years, ercPercentByYear: ercs };
}

/** "products 1, rates 2, maxLtvPercent: LTV bands must rise…": where a profile issue is, for a person to find it. */
export function profileIssue(issue: { path: readonly PropertyKey[]; message: string }): string {
  const parts: string[] = [];
  for (const part of issue.path.slice(1)) {
    if (typeof part === 'number' && parts.length > 0) parts[parts.length - 1] += ` ${part + 1}`;
    else parts.push(String(part));
  }
  return parts.length > 0 ? `${parts.join(', ')}: ${issue.message}` : issue.message;
}
