import {
  illustrate,
  illustrationOfOffer,
  percentage,
  pounds,
  poundsAndPence,
  termInWords,
  type EventOf,
  type Illustration,
  type IllustrationInput,
} from '@pf/events';

type Opened = EventOf<'DealOpened'>['data'];

/**
 * The regulated figures' input for a deal's agreed terms (docs/behaviour/regulated-figures.md): the offer module's own
 * illustration of the terms and the product the deal carries (DealOpened.product), one rate for the term without one.
 */
export function illustrationInputOf(deal: Opened): IllustrationInput {
  const { loanAmount, interestRate, termYears, arrangementFee } = deal;
  return illustrationOfOffer({ loanAmount, interestRate, termYears, arrangementFee }, deal.product);
}

interface EsisSection {
  title: string;
  lines: string[];
}

export interface EsisDocument {
  title: string;
  sections: EsisSection[];
  figures: Illustration;
}

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The ESIS's sections that apply to an agreed deal (MCOB 5A Annex 1, with the sections that do not apply left
 * out and the rest numbered on, as MCOB 5A.5.3R(4) and (5) direct), with the figures `illustrate` gives.
 */
export function esisContent(deal: Opened, producedAt: Date): EsisDocument {
  const input = illustrationInputOf(deal);
  const figures = illustrate(input);
  const product = deal.product;
  const rates = input.rates;
  const sections: EsisSection[] = [];
  const add = (title: string, lines: string[]) => sections.push({ title: `${sections.length + 1}. ${title}`, lines });

  add('Lender', [deal.lender.name]);
  if (deal.broker) add('Credit intermediary', [deal.broker.name]);
  const productLine = [product?.name, product?.type === 'tracker' ? 'tracker rate' : product?.type === 'fixed' ? 'fixed rate' : null]
    .filter(Boolean)
    .join(', ');
  add('Main features of the loan', [
    `Amount and currency of the loan to be granted: ${pounds(deal.loanAmount)} (pounds sterling)`,
    `Duration of the loan: ${termInWords(input.termMonths)}`,
    ...(productLine ? [`Product: ${productLine}`] : []),
    `Type of interest rate: ${rates.length > 1 ? `${percentage(rates[0]!.ratePercent)} for ${termInWords(rates[0]!.months ?? 0)}, then ${percentage(rates[1]!.ratePercent)} for the rest of the term` : `${percentage(rates[0]!.ratePercent)} for the whole term`}`,
    `Total amount to be repaid: ${poundsAndPence(figures.totalAmountPayable)}`,
    `This means that you will pay back ${poundsAndPence(figures.totalAmountPayable / deal.loanAmount)} for every £1 borrowed.`,
    `Value of the property assumed to prepare this information sheet: ${pounds(deal.propertyValue)}`,
    `Loan to value: ${percentage((deal.loanAmount / deal.propertyValue) * 100, 1)}`,
  ]);
  add('Interest rate and other costs', [
    `The annual percentage rate of charge (APRC) is the total cost of the loan expressed as an annual percentage.`,
    `The APRC is: ${figures.aprc.toFixed(1)}%`,
    `It comprises: interest rate ${rates.map((r) => percentage(r.ratePercent)).join(', then ')}; fees ${poundsAndPence(figures.totalFees)}.`,
    ...(deal.arrangementFee > 0
      ? [
          `Arrangement fee: ${pounds(deal.arrangementFee)}${product?.feeAddedToLoan ? ', added to the loan' : ', payable when the loan is made'}`,
        ]
      : ['Arrangement fee: none']),
    ...(product?.cashbackPounds ? [`Cashback on completion: ${pounds(product.cashbackPounds)}`] : []),
    `Total cost of credit: ${poundsAndPence(figures.totalCostOfCredit)}`,
    ...(rates.length > 1 ? ['This APRC assumes the rate after the initial period stays at its level today for the rest of the term.'] : []),
  ]);
  add('Frequency and number of payments', [
    `Repayment frequency: monthly`,
    `Number of payments: ${figures.payments.reduce((total, period) => total + period.months, 0)}`,
  ]);
  add(
    'Amount of each instalment',
    figures.payments.map(
      (period) => `${period.months} monthly ${period.months === 1 ? 'payment' : 'payments'} of ${poundsAndPence(period.amount)}`,
    ),
  );
  const ercs = product?.ercPercentByYear ?? [];
  add('Early repayment', [
    'You have the right to repay this loan early, either fully or partially.',
    ...(ercs.length > 0
      ? ercs.map((erc, year) => `Early repayment charge in year ${year + 1}: ${percentage(erc)} of the amount repaid`)
      : ['No early repayment charge was agreed.']),
  ]);
  return {
    title: 'European Standardised Information Sheet (ESIS): mortgage illustration',
    sections: [
      {
        title: 'Introduction',
        lines: [
          `This document was produced for ${deal.borrower.name} on ${longDate.format(producedAt)}, when the terms were agreed.`,
          `This document does not constitute an obligation for ${deal.lender.name} to grant you a loan.`,
          ...(deal.propertyAddress ? [`Property: ${deal.propertyAddress}`] : []),
        ],
      },
      ...sections,
    ],
    figures,
  };
}
