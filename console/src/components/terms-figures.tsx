import {
  plural,
  pounds,
  poundsAndPence,
  ratePercent,
  termInWords,
  type DealView,
  type LoanTerms,
  type OfferedProduct,
  type OfferFigures,
} from '@pf/events';

/**
 * Terms as a person reads them wherever they are shown (offer cards, deals, History): the product, its initial period,
 * the rate and what it reverts to, the fee and cashback, and the regulated figures the read side served with them
 * (docs/behaviour/offers.md). Nothing here computes a figure: a payment or APRC missing from `figures` is shown as
 * not known.
 */
export interface TermsRow {
  label: string;
  value: string;
}

const PRODUCT_TYPE_WORDS: Record<OfferedProduct['type'], string> = { fixed: 'fixed rate', tracker: 'tracker' };

/** "£886.73", or "£886.73, then £1,170.05" when the rate reverts. */
function paymentText(figures: OfferFigures): string {
  return figures.payments.map((period) => poundsAndPence(period.amount)).join(', then ');
}

/** The APRC as MCOB 10A states it, to one decimal place. */
export const aprcText = (figures: Pick<OfferFigures, 'aprc'>) => `${figures.aprc.toFixed(1)}%`;

export function termsRows(terms: LoanTerms, product: OfferedProduct | null, figures: OfferFigures | null): TermsRow[] {
  const unknown = '–';
  const regulated = [
    { label: 'Monthly payment', value: figures ? paymentText(figures) : unknown },
    { label: 'APRC', value: figures ? aprcText(figures) : unknown },
  ];
  const common = [
    { label: 'Loan', value: pounds(terms.loanAmount) },
    { label: 'Term', value: plural(terms.termYears, 'year') },
  ];
  if (!product) {
    return [
      { label: 'Rate', value: ratePercent(terms.interestRate) },
      ...common,
      { label: 'Fee', value: pounds(terms.arrangementFee) },
      ...regulated,
    ];
  }
  const initial = termInWords(product.initialPeriodMonths);
  const reverts = product.initialPeriodMonths < terms.termYears * 12;
  return [
    { label: 'Product', value: `${product.name} (${PRODUCT_TYPE_WORDS[product.type]})` },
    { label: 'Initial period', value: initial },
    {
      label: 'Rate',
      value: reverts
        ? `${ratePercent(terms.interestRate)} for ${initial}, then ${ratePercent(product.reversionRatePercent)}`
        : ratePercent(terms.interestRate),
    },
    ...common,
    {
      label: 'Fee',
      value:
        terms.arrangementFee > 0
          ? `${pounds(terms.arrangementFee)}${product.feeAddedToLoan ? ', added to the loan' : ''}`
          : product.feeFree
            ? 'None (fee-free)'
            : 'None',
    },
    { label: 'Cashback', value: product.cashbackPounds > 0 ? pounds(product.cashbackPounds) : 'None' },
    ...regulated,
  ];
}

/** The rows as table rows (each a header cell and its value), for a table of its caller's. */
export function TermsRows({ rows }: { rows: readonly TermsRow[] }) {
  return (
    <>
      {rows.map((row) => (
        <tr key={row.label} data-testid={`terms-${row.label.toLowerCase().replaceAll(' ', '-')}`}>
          <th scope="row">{row.label}</th>
          <td>{row.value}</td>
        </tr>
      ))}
    </>
  );
}

/** A deal's agreed terms as rows (a deal names its term `term`). */
export function dealTermsRows(deal: Pick<DealView, 'loanAmount' | 'interestRate' | 'term' | 'arrangementFee' | 'product' | 'figures'>) {
  const { loanAmount, interestRate, term, arrangementFee } = deal;
  return termsRows({ loanAmount, interestRate, termYears: term, arrangementFee }, deal.product, deal.figures);
}
