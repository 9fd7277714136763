import { describe, expect, it } from 'vitest';
import { offerFigures, pounds, poundsAndPence, type LoanTerms, type OfferedProduct } from '@pf/events';
import { printReadings } from './print';
import { checkTranscripts, type CheckReport } from './rules';
import type { Entry, Transcript } from './transcript';

/*
 * FABRICATED CONVERSATIONS. These test the checker, not the negotiation: each transcript below is made up here, a
 * sound one and one broken copy per rule, to show that every rule catches what it is for (a checker that passes
 * everything would pass a real run too). Their figures are not domain facts: the quoted payments and APRCs are
 * whatever offerFigures computes for them, and the broken copies change them on purpose.
 */

const PRODUCT: OfferedProduct = {
  productId: 'fabricated-5y-fix',
  name: 'Fabricated Five Year Fix',
  type: 'fixed',
  initialPeriodMonths: 60,
  reversionRatePercent: 7.99,
  ercPercentByYear: [5, 4, 3, 2, 1],
  feeFree: false,
  feeAddedToLoan: false,
  cashbackPounds: 0,
};
const BORROWER = 1;
const LENDER = 2;
const terms = (interestRate: number, arrangementFee = 999, loanAmount = 150_000, termYears = 23): LoanTerms => ({
  interestRate,
  arrangementFee,
  loanAmount,
  termYears,
});

/** The docs' one way of quoting an offer (docs/behaviour/negotiation.md, "What the agents say"), figures from offerFigures. */
function quote(t: LoanTerms, tamper: { payment?: number; aprc?: number } = {}): string {
  const figures = offerFigures(t, PRODUCT);
  const fee = t.arrangementFee === 0 ? 'no fee' : `fee ${pounds(t.arrangementFee)}`;
  const payment = poundsAndPence(figures.monthlyPayment + (tamper.payment ?? 0));
  const aprc = (figures.aprc + (tamper.aprc ?? 0)).toFixed(1);
  return `${PRODUCT.name}, a 5-year fixed rate, on ${pounds(t.loanAmount)} over ${t.termYears} years: ${t.interestRate.toFixed(2)}%, ${fee}, ${payment} a month, APRC ${aprc}%`;
}

const say = (agentId: number, text: string): Entry => ({ kind: 'message', agentId, text, automated: true, reading: false });
const offer = (agentId: number, offerId: string, t: LoanTerms): Entry => ({
  kind: 'offer',
  offerId,
  agentId,
  terms: t,
  product: PRODUCT,
  byPerson: false,
});
const reject = (agentId: number, offerId: string): Entry => ({ kind: 'rejected', offerId, agentId });
const accept = (agentId: number, offerId: string, t: LoanTerms): Entry => ({ kind: 'accepted', offerId, agentId, terms: t });

/** A fabricated negotiation that keeps every rule: the lender opens, each side concedes once, the lender agrees. */
function soundEntries(): Entry[] {
  return [
    say(LENDER, `Hello. For this case our price is ${quote(terms(4.79))}.`),
    offer(LENDER, 'l1', terms(4.79)),
    say(BORROWER, `Thank you. Could you do ${quote(terms(4.39))}?`),
    reject(BORROWER, 'l1'),
    offer(BORROWER, 'b1', terms(4.39)),
    say(LENDER, `Thanks. We can move to ${quote(terms(4.69))}.`),
    reject(LENDER, 'b1'),
    offer(LENDER, 'l2', terms(4.69)),
    say(BORROWER, `I can move to ${quote(terms(4.59))}.`),
    reject(BORROWER, 'l2'),
    offer(BORROWER, 'b2', terms(4.59)),
    say(LENDER, `We're happy to agree: ${quote(terms(4.59))}.`),
    accept(LENDER, 'b2', terms(4.59)),
    { kind: 'completed', outcome: 'agreed' },
  ];
}

function transcript(entries: Entry[]): Transcript {
  return {
    source: 'fabricated',
    conversationId: 1,
    participants: [
      { agentId: BORROWER, type: 'borrower', name: 'Fabricated borrower' },
      { agentId: LENDER, type: 'lender', name: 'Fabricated lender' },
    ],
    needs: {
      propertyValue: 250_000,
      loanAmount: 150_000,
      termYears: 23,
      purpose: 'purchase',
      repaymentType: 'repayment',
      fee: 'paid',
      maxFeePounds: 999,
      monthlyCommitments: 0,
    },
    entries,
  };
}

/** The sound transcript with entry `at` replaced by `by` (one or more entries). */
function broken(at: number, ...by: Entry[]): Transcript {
  const entries = soundEntries();
  entries.splice(at, 1, ...by);
  return transcript(entries);
}

const violated = (report: CheckReport) => [...new Set(report.violations.map((v) => v.rule))];

describe('the transcript rules, on fabricated conversations', () => {
  it('a sound conversation breaks none, and every rule had something to check', () => {
    const report = checkTranscripts([transcript(soundEntries())]);
    expect(report.violations).toEqual([]);
    const checked = Object.fromEntries(report.rules.map((rule) => [rule.name, rule.checked]));
    expect(checked).toEqual({
      'fee cap kept': 5,
      'loan and term never traded': 5,
      'words agree with moves': 5,
      'refusals answer worse offers': 0,
      'refused terms never accepted': 1,
      'quoted figures are computed': 5,
      'agreements name the deal': 1,
      'conceding and refusing words are documented': 5,
    });
  });

  it('catches a fee above the borrower’s cap', () => {
    const report = checkTranscripts([broken(7, offer(LENDER, 'l2', terms(4.69, 1_499)))]);
    expect(violated(report)).toContain('fee cap kept');
    expect(report.violations.find((v) => v.rule === 'fee cap kept')?.detail).toBe(
      "an agent's offer has a fee of £1,499, above the borrower's cap of £999",
    );
  });

  it('catches a loan or a term traded', () => {
    const shorter = checkTranscripts([broken(7, offer(LENDER, 'l2', terms(4.69, 999, 150_000, 20)))]);
    const smaller = checkTranscripts([broken(7, offer(LENDER, 'l2', terms(4.69, 999, 140_000)))]);
    for (const report of [shorter, smaller]) expect(violated(report)).toContain('loan and term never traded');
  });

  it('catches a move away from the other side called a concession', () => {
    // The lender "moves to" 4.89% after offering 4.79%: more for itself, not less.
    const entries = soundEntries();
    entries.splice(
      5,
      3,
      say(LENDER, `Thanks. We can move to ${quote(terms(4.89))}.`),
      reject(LENDER, 'b1'),
      offer(LENDER, 'l2', terms(4.89)),
    );
    const report = checkTranscripts([transcript(entries)]);
    expect(violated(report)).toContain('words agree with moves');
    expect(report.violations.find((v) => v.rule === 'words agree with moves')?.detail).toBe(
      'called a concession, but £150,000 over 23 years at 4.89%, fee £999 is not better for the borrower than its previous offer, £150,000 over 23 years at 4.79%, fee £999',
    );
  });

  it('catches words of a move that are none of the documented phrasings', () => {
    const report = checkTranscripts([broken(5, say(LENDER, `Our best at this stage is ${quote(terms(4.69))}.`))]);
    expect(report.violations.map((v) => v.detail)).toContain(
      'the words of an offer are none of the phrasings of docs/behaviour/negotiation.md, "What the agents say"',
    );
  });

  it('catches a refusal of an offer better for the speaker than its own', () => {
    // The borrower asks 4.85%, more than the lender's own 4.79%, and the lender says it can't do that.
    const entries = soundEntries();
    entries.splice(
      2,
      3,
      say(BORROWER, `Thank you. Could you do ${quote(terms(4.85))}?`),
      reject(BORROWER, 'l1'),
      offer(BORROWER, 'b1', terms(4.85)),
    );
    entries.splice(5, 1, say(LENDER, `We can't do that, but we can move to ${quote(terms(4.69))}.`));
    const report = checkTranscripts([transcript(entries)]);
    expect(violated(report)).toContain('refusals answer worse offers');
  });

  it('catches refusing words answering an offer of another loan', () => {
    // The borrower asks for a smaller loan: negotiation.md answers such an offer with the agent's own, without refusing.
    const entries = soundEntries();
    const smaller = terms(4.85, 999, 140_000);
    entries.splice(
      2,
      3,
      say(BORROWER, `Thank you. Could you do ${quote(smaller)}?`),
      reject(BORROWER, 'l1'),
      offer(BORROWER, 'b1', smaller),
    );
    entries.splice(5, 1, say(LENDER, `We can't do that, but we can move to ${quote(terms(4.69))}.`));
    const report = checkTranscripts([transcript(entries)]);
    expect(report.violations.find((v) => v.rule === 'refusals answer worse offers')?.detail).toBe(
      "refuses £140,000 over 23 years at 4.85%, fee £999, an offer of another loan or term than the borrower's £150,000 over 23 years",
    );
  });

  it('catches refused terms accepted afterwards', () => {
    // The borrower calls the lender's 4.69% more than it can manage, then accepts 4.69%.
    const entries = soundEntries();
    entries.splice(
      8,
      6,
      say(BORROWER, `I'm sorry, that's more than I can manage. Could you do ${quote(terms(4.49))}?`),
      reject(BORROWER, 'l2'),
      offer(BORROWER, 'b2', terms(4.49)),
      say(LENDER, `Our offer stays at ${quote(terms(4.69))}.`),
      reject(LENDER, 'b2'),
      offer(LENDER, 'l3', terms(4.69)),
      say(BORROWER, `Agreed: ${quote(terms(4.69))}.`),
      accept(BORROWER, 'l3', terms(4.69)),
    );
    const report = checkTranscripts([transcript(entries)]);
    expect(violated(report)).toEqual(['refused terms never accepted']);
  });

  it('catches a quoted payment or APRC that is not the computed one', () => {
    const payment = checkTranscripts([broken(5, say(LENDER, `Thanks. We can move to ${quote(terms(4.69), { payment: 0.01 })}.`))]);
    const aprc = checkTranscripts([broken(5, say(LENDER, `Thanks. We can move to ${quote(terms(4.69), { aprc: 0.1 })}.`))]);
    expect(violated(payment)).toEqual(['quoted figures are computed']);
    expect(violated(aprc)).toEqual(['quoted figures are computed']);
    expect(payment.violations[0]!.text).toContain('a month');
  });

  it("checks a broker's suggestion as the cashback it names, of the product it names", () => {
    // The suggestion (a point of the lender's ladder, cashback included) is no offer: the product's offers may carry
    // another cashback. Its figures must still be those of the terms and cashback it states.
    const BROKER = 3;
    const withCashback = { ...PRODUCT, cashbackPounds: 2_500 };
    const t = terms(4.64);
    const figures = offerFigures(t, withCashback);
    const suggestion = (aprc: number) =>
      `You're not far apart. Would ${PRODUCT.name}, a 5-year fixed rate, on ${pounds(t.loanAmount)} over ${t.termYears} years: ` +
      `${t.interestRate.toFixed(2)}%, fee ${pounds(t.arrangementFee)}, £2,500 cashback, ${poundsAndPence(figures.monthlyPayment)} a month, ` +
      `APRC ${aprc.toFixed(1)}% work for you both?`;
    const withBroker = (text: string): Transcript => {
      const entries = soundEntries();
      entries.splice(8, 0, say(BROKER, text));
      const read = transcript(entries);
      return { ...read, participants: [...read.participants, { agentId: BROKER, type: 'broker', name: 'Fabricated broker' }] };
    };
    const sound = checkTranscripts([withBroker(suggestion(figures.aprc))]);
    expect(sound.violations).toEqual([]);
    expect(sound.rules.find((rule) => rule.name === 'quoted figures are computed')?.checked).toBe(6);
    const wrong = checkTranscripts([withBroker(suggestion(offerFigures(t, PRODUCT).aprc))]);
    expect(figures.aprc.toFixed(1)).not.toBe(offerFigures(t, PRODUCT).aprc.toFixed(1));
    expect(violated(wrong)).toEqual(['quoted figures are computed']);
  });

  it('catches an agreement that does not name the product and its figures', () => {
    const report = checkTranscripts([broken(11, say(LENDER, "We're happy to agree: 4.59%, fee £999."))]);
    expect(violated(report)).toContain('agreements name the deal');
  });

  it('fails a reading that had no conversation with offers to check', () => {
    const empty = checkTranscripts([]);
    const lines: string[] = [];
    const passed = printReadings(
      { seeds: [{ seed: 1, check: empty, problems: [], simulationViolations: 0, ms: 0 }], steps: 1, tournament: null, ms: 0 },
      (line) => lines.push(line),
    );
    expect(passed).toBe(false);
    expect(lines).toContain('FAILED: seed 1: no conversation with offers was read');
  });
});
