import { parseArgs } from 'node:util';
import { parseIllustrationInput, type IllustrationInput } from './illustration';

const usage =
  'usage: npm run illustrate -- --loan POUNDS --term-years YEARS --rate PERCENT:MONTHS ... --rate PERCENT [--fee POUNDS ...] [--fee-added POUNDS ...] [--fee-at-end POUNDS ...] [--cashback POUNDS] [--fixed-initial-rate] [--interest-only] [--lender NAME] [--json]';

/** What `npm run illustrate` was asked for, or a RangeError naming the first problem in one line. */
export function parseIllustrateArgs(args: string[]): { input: IllustrationInput; json: boolean; lender?: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        loan: { type: 'string' },
        'term-years': { type: 'string' },
        'term-months': { type: 'string' },
        rate: { type: 'string', multiple: true },
        fee: { type: 'string', multiple: true },
        'fee-added': { type: 'string', multiple: true },
        'fee-at-end': { type: 'string', multiple: true },
        'fixed-initial-rate': { type: 'boolean' },
        cashback: { type: 'string' },
        'interest-only': { type: 'boolean' },
        lender: { type: 'string' },
        json: { type: 'boolean' },
      },
    }));
  } catch (error) {
    // node's own messages can run to three lines; the first names the problem.
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    throw new RangeError(`${message} ${usage}`);
  }
  if (values.loan === undefined) throw new RangeError(`--loan is required; ${usage}`);
  if ((values['term-years'] === undefined) === (values['term-months'] === undefined))
    throw new RangeError(`give the term once, as --term-years or --term-months; ${usage}`);
  if (!values.rate?.length) throw new RangeError(`at least one --rate is required; ${usage}`);
  const termMonths =
    values['term-years'] !== undefined
      ? number('--term-years', values['term-years']) * 12
      : number('--term-months', values['term-months'] ?? '');
  const rates = values.rate.map((text, index) => {
    const [rate, months, extra] = text.split(':');
    if (extra !== undefined || rate === undefined) throw new RangeError(`--rate ${text} is not PERCENT or PERCENT:MONTHS`);
    const last = index === (values.rate?.length ?? 0) - 1;
    if (!last && months === undefined) throw new RangeError(`--rate ${text} needs :MONTHS: only the last rate runs to the end of the term`);
    if (last && months !== undefined)
      throw new RangeError(`--rate ${text}: the last rate runs to the end of the term, so give it no :MONTHS`);
    return { ratePercent: number('--rate', rate), ...(months === undefined ? {} : { months: number(`--rate ${text} months`, months) }) };
  });
  const input: IllustrationInput = {
    loan: number('--loan', values.loan),
    termMonths,
    rates,
    fees: (values.fee ?? []).map((fee) => number('--fee', fee)),
    feesAddedToLoan: (values['fee-added'] ?? []).map((fee) => number('--fee-added', fee)),
    feesAtEnd: (values['fee-at-end'] ?? []).map((fee) => number('--fee-at-end', fee)),
    ...(values['fixed-initial-rate'] ? { initialRateFixed: true } : {}),
    ...(values.cashback === undefined ? {} : { cashback: number('--cashback', values.cashback) }),
    repayment: values['interest-only'] ? 'interest-only' : 'repayment',
  };
  parseIllustrationInput(input);
  return { input, json: values.json ?? false, ...(values.lender === undefined ? {} : { lender: values.lender }) };
}

function number(flag: string, text: string): number {
  const value = /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value)) throw new RangeError(`${flag} must be a number, not "${text}"`);
  return value;
}
