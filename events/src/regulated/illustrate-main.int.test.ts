import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { illustrate } from './illustration';

/**
 * `npm run illustrate` as a process, against representative examples UK lenders and a consumer site published.
 * Each source is quoted as the search tool's stored copy held it on 2026-11-28 (none of the pages carries its own
 * date). Where a lender's figure differs from ours, docs/behaviour/regulated-figures.md says why, as far as known.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function illustrateCli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', 'illustrate', '--', ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const figuresSchema = (text: string) =>
  JSON.parse(text) as {
    payments: { months: number; amount: number }[];
    totalAmountPayable: number;
    totalCostOfCredit: number;
    aprc: number;
  };

async function json(args: string[]) {
  const run = await illustrateCli([...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return figuresSchema(run.stdout);
}

describe('npm run illustrate reproduces published representative examples', () => {
  it('Which?: £125,000 over 25 years, 3.5% fixed for 2 years then 5.5%, £999 of fees', async () => {
    // https://www.which.co.uk/money/mortgages-and-property/compare-mortgages/annual-percentage-rate-of-charge-example-calculation-adl8c9t4vxjy
    // "Loan Amount: £125,000 Term: 25 years Initial Rate: 3.5% (fixed) Initial Term: 2 years Subsequent Rate: 5.5%
    // (variable) Lender fees: £999 … [repayment] The total amount repayable is £225,131.92 … The APRC is 5.3%.
    // … [interest only] The total amount repayable is £292,874.74 … The APRC is 5.4%."
    const args = ['--loan', '125000', '--term-years', '25', '--rate', '3.5:24', '--rate', '5.5', '--fee', '999'];
    const repayment = await json(args);
    expect(Math.abs(repayment.totalAmountPayable - 225_131.92)).toBeLessThanOrEqual(1);
    expect(repayment.aprc).toBe(5.3);
    const interestOnly = await json([...args, '--interest-only']);
    expect(interestOnly.payments).toEqual([
      { months: 24, amount: 364.58 },
      { months: 276, amount: 572.92 },
    ]);
    expect(Math.abs(interestOnly.totalAmountPayable - 292_874.74)).toBeLessThanOrEqual(1);
    expect(interestOnly.aprc).toBe(5.4);
  });

  it('Furness Building Society: £150,000 over 23 years, 4.59% fixed for 5 years then 8.39%, the £999 fee added', async () => {
    // https://furnessbs.co.uk/intermediaries/product-transfers/product-overview/5-year-fixed-rate-at-4-59?ltv=100&mortgage-length=40
    // "A mortgage of £150,000 payable over 23 years initially on a fixed rate for 5 years at 4.59% and then on our
    // Mortgage Variable Rate (MVR) of 8.39% for the remaining 18 years would require 60 monthly payments of £886.73
    // and then 216 monthly payments of £1,170.05. The total amount payable would be £306,054.60 made up of the loan
    // amount plus interest (£304,935.60), an application fee of £999 and a Mortgage Discharge Fee of £120.00. The
    // overall cost for comparison is 6.9% APRC representative."
    // The payments are those of £150,999: the application fee is added to the loan; the discharge fee is paid at the end.
    const figures = await json([
      '--loan',
      '150000',
      '--term-years',
      '23',
      '--rate',
      '4.59:60',
      '--rate',
      '8.39',
      '--fee-added',
      '999',
      '--fee-at-end',
      '120',
    ]);
    expect(figures.payments).toEqual([
      { months: 60, amount: 886.73 },
      { months: 216, amount: 1170.05 },
    ]);
    expect(Math.abs(figures.totalAmountPayable - 306_054.6)).toBeLessThanOrEqual(1);
    expect(figures.aprc).toBe(6.9);
  });

  it('April Mortgages: £220,000 over 35 years, 5.15% fixed for 5 years, then 6.55% and 6.50% as the LTV falls', async () => {
    // https://4bnj8w.aprilmortgages.co.uk/broker/rate-reducer
    // "A mortgage of £220,000 against a property costing £300,000 over a term of 35 years on an initial 5 Year Fixed
    // Rate at 5.15% (fixed) would require 60 monthly payments of £1,131.45, 108 monthly payments of £1,316.56 based on
    // our Standard Mortgage Rate (at 60-75% LTV), currently 6.55% (variable) and 252 monthly payments of based on our
    // Standard Mortgage Rate (at 0-60% LTV), currently 6.50% (variable). The total amount payable would be
    // £541,684.84, made up of the loan amount (£220,000.00) plus interest (£320,494.84), application fee (£195.00),
    // completion fee (£995.00) and valuation fee (£0.00). The overall cost for comparison is 6.25% APRC Representative."
    // (The page leaves the third payment out; it prints the APRC to two decimal places.)
    const input = {
      loan: 220_000,
      termMonths: 420,
      rates: [{ ratePercent: 5.15, months: 60 }, { ratePercent: 6.55, months: 108 }, { ratePercent: 6.5 }],
      fees: [195, 995],
    };
    const figures = await json([
      '--loan',
      '220000',
      '--term-years',
      '35',
      '--rate',
      '5.15:60',
      '--rate',
      '6.55:108',
      '--rate',
      '6.50',
      '--fee',
      '195',
      '--fee',
      '995',
    ]);
    expect(figures.payments.slice(0, 2)).toEqual([
      { months: 60, amount: 1131.45 },
      { months: 108, amount: 1316.56 },
    ]);
    expect(figures.payments[2]?.months).toBe(252);
    expect(Math.abs(figures.totalAmountPayable - 541_684.84)).toBeLessThanOrEqual(1);
    expect(figures.aprc).toBe(6.3);
    expect(illustrate(input).aprcUnrounded.toFixed(2)).toBe('6.25');
  });
});

describe('npm run illustrate in words, and its answer to bad arguments', () => {
  it('prints the representative example', async () => {
    const run = await illustrateCli(['--loan', '125000', '--term-years', '25', '--rate', '3.5:24', '--rate', '5.5', '--fee', '999']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('would require 24 monthly payments of £625.78 and 276 monthly payments of £757.66.');
    expect(run.stdout).toContain('The overall cost for comparison is 5.3% APRC representative.');
  });

  it.each([
    [['--loan', 'lots', '--term-years', '25', '--rate', '3'], '--loan must be a number, not "lots"'],
    [['--loan', '100000', '--term-years', '25', '--rate', '3', '--rate', '5'], '--rate 3 needs :MONTHS'],
    [['--loan', '100000', '--term-years', '25', '--rate', '3', '--fee=-5'], 'a fee must not be negative'],
    [['--loan', '100000', '--term-years', '25', '--rate', '3', '--colour'], "Unknown option '--colour'"],
  ])('%j: one line naming the problem, exit 2', async (args, problem) => {
    const run = await illustrateCli(args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(problem);
  });
});
