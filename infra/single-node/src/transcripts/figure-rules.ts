import { pounds, poundsAndPence, type BookedOffer, type LoanTerms, type OfferedProduct } from '@pf/events';
import { figuresOf, sameTerms, type Turn } from './transcript';
import { agentWords, describe, sideOf, wordsOf, type Finding, type Rule } from './rule';
import { readWords, statedFigures, type QuotedOffer } from './words';

/** The offer an agent's message speaks for: the one its turn makes or accepts, else (a broker's suggestion) none made. */
const offerOfTurn = (turn: Turn): Pick<BookedOffer, 'terms' | 'product'> | null => turn.offer ?? turn.accepted;

function quoteProblems(quote: QuotedOffer, terms: LoanTerms, product: OfferedProduct | null): string[] {
  const problems: string[] = [];
  const figures = figuresOf(terms, product);
  const pence = (value: number) => Math.round(value * 100);
  if (pence(quote.monthlyPayment) !== pence(figures.monthlyPayment))
    problems.push(`quotes ${poundsAndPence(quote.monthlyPayment)} a month; offerFigures: ${poundsAndPence(figures.monthlyPayment)}`);
  if (Math.round(quote.aprc * 10) !== Math.round(figures.aprc * 10))
    problems.push(`quotes an APRC of ${quote.aprc}%; offerFigures: ${figures.aprc.toFixed(1)}%`);
  const said: LoanTerms = {
    loanAmount: quote.loanAmount,
    termYears: quote.termYears,
    interestRate: quote.interestRate,
    arrangementFee: quote.arrangementFee,
  };
  if (!sameTerms(said, terms)) problems.push(`quotes ${describe(said)}; the offer: ${describe(terms)}`);
  if (!product) problems.push('quotes a product, but the offer carries none');
  else {
    if (quote.productName !== product.name) problems.push(`quotes the product "${quote.productName}"; the offer's: "${product.name}"`);
    if (quote.initialPeriodMonths !== product.initialPeriodMonths)
      problems.push(`quotes a ${quote.initialPeriodMonths}-month initial period; the product's: ${product.initialPeriodMonths}`);
    if (quote.type !== product.type) problems.push(`quotes a ${quote.type}; the product is a ${product.type}`);
    if (quote.cashbackPounds !== product.cashbackPounds)
      problems.push(`quotes ${pounds(quote.cashbackPounds)} cashback; the product's: ${pounds(product.cashbackPounds)}`);
    if (quote.feeAddedToLoan !== product.feeAddedToLoan && quote.arrangementFee > 0)
      problems.push('says where the fee is paid otherwise than the offer');
  }
  return problems;
}

export const quotedFigures: Rule = {
  name: 'quoted figures are computed',
  unit: 'message stating figures',
  check: (transcript, turns) => {
    const findings: Finding[] = [];
    let checked = 0;
    const products = new Map(
      transcript.entries.flatMap((entry): [string, OfferedProduct][] =>
        entry.kind === 'offer' && entry.product ? [[entry.product.name, entry.product]] : [],
      ),
    );
    for (const turn of turns) {
      if (!agentWords(turn)) continue;
      const text = wordsOf(turn);
      const { quote } = readWords(sideOf(turn), text);
      const stated = statedFigures(text);
      if (!quote && stated.payments.length === 0 && stated.aprcs.length === 0) continue;
      checked += 1;
      const own = offerOfTurn(turn);
      if (quote) {
        // A broker's suggestion is no offer made: its figures are checked as the terms and the cashback it names, of
        // the product it names (cashback is a lender's concession, so the product's last offer may carry another).
        const terms = own?.terms ?? {
          loanAmount: quote.loanAmount,
          termYears: quote.termYears,
          interestRate: quote.interestRate,
          arrangementFee: quote.arrangementFee,
        };
        const named = products.get(quote.productName);
        const product = own ? own.product : named ? { ...named, cashbackPounds: quote.cashbackPounds } : null;
        for (const problem of quoteProblems(quote, terms, product)) findings.push({ text, detail: problem });
      } else {
        const figures = own ? figuresOf(own.terms, own.product) : null;
        for (const payment of stated.payments) {
          if (!figures || !figures.payments.some((p) => Math.round(p.amount * 100) === Math.round(payment * 100)))
            findings.push({
              text,
              detail: `states ${poundsAndPence(payment)} a month, ${figures ? `not a payment of the offer (${figures.payments.map((p) => poundsAndPence(p.amount)).join(', ')})` : 'with no offer made or accepted'}`,
            });
        }
        for (const aprc of stated.aprcs) {
          if (!figures || Math.round(aprc * 10) !== Math.round(figures.aprc * 10))
            findings.push({
              text,
              detail: `states an APRC of ${aprc}%, ${figures ? `the offer's is ${figures.aprc.toFixed(1)}%` : 'with no offer made or accepted'}`,
            });
        }
      }
    }
    return { checked, findings };
  },
};

export const agreementsNamed: Rule = {
  name: 'agreements name the deal',
  unit: 'agreement',
  check: (_transcript, turns) => {
    const findings: Finding[] = [];
    const agreements = turns.filter((turn) => turn.accepted && agentWords(turn));
    for (const turn of agreements) {
      const text = wordsOf(turn);
      const accepted = turn.accepted!;
      const { quote } = readWords(sideOf(turn), text);
      if (!accepted.product) findings.push({ text, detail: 'the accepted offer carries no product to name' });
      else if (!quote) findings.push({ text, detail: 'does not name the product, initial period, rate, fee, monthly payment and APRC' });
      else for (const problem of quoteProblems(quote, accepted.terms, accepted.product)) findings.push({ text, detail: problem });
    }
    return { checked: agreements.length, findings };
  },
};
