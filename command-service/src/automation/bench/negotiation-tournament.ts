/**
 * `npm run bench:negotiation`: runs the tournament over generated borrower needs × lender ranges and prints its
 * figures, overall and per strategy pairing, against the targets in bench/README.md. Options: --pairs N (default
 * 5000), --seed N (default 1).
 */
import { runTournament, type PairingFigures } from './tournament';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}

const pairs = option('pairs', 5000);
const seed = option('seed', 1);
// Warm the JIT so negotiations per second measures steady state, not compilation.
runTournament({ pairs: 100, seed: seed + 1 });
const report = runTournament({ pairs, seed });
const again = runTournament({ pairs: Math.min(pairs, 500), seed });
const first = runTournament({ pairs: Math.min(pairs, 500), seed });
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');
const same = JSON.stringify(again.byPairing) === JSON.stringify(first.byPairing);

const targets = [
  ['agreement where a zone exists', percent(report.agreementRateWithZone), '>= 99%', report.agreementRateWithZone >= 0.99],
  [
    'agreements outside limits (discretion, fee cap, loan, term) or without a zone',
    String(report.agreementsOutsideLimits + report.agreementsWithoutZone),
    '0',
    report.agreementsOutsideLimits + report.agreementsWithoutZone === 0,
  ],
  [
    'offers outside limits (lender beyond discretion; either side over the fee cap, or another loan or term)',
    String(report.offersOutsideLimits),
    '0',
    report.offersOutsideLimits === 0,
  ],
  ['mean distance to Pareto frontier', report.meanDistanceToPareto.toFixed(4), 'reported', true],
  ['mean distance to Nash point', report.meanDistanceToNash.toFixed(4), 'reported', true],
  ['deterministic by seed (a second run of 500)', same ? 'same' : 'different', 'same', same],
] as const;

const row = (name: string, f: PairingFigures) =>
  `| ${name} | ${f.pairs} | ${f.pairsPriced} | ${f.pairsWithZone} | ${percent(f.agreementRateWithZone)} | ${f.agreementsOutsideLimits + f.agreementsWithoutZone} | ${f.offersOutsideLimits} | ${f.asksBeyondDiscretion} | ${f.medianRoundsWithZone} | ${f.medianRoundsToAgreement} | ${f.meanDistanceToPareto.toFixed(4)} | ${f.meanDistanceToNash.toFixed(4)} | ${percent(f.meanDiscretionGiven)} |`;

const lines = [
  `negotiation tournament: ${report.pairs} generated pairs of borrower needs × lender range (seed ${seed})`,
  '',
  '| target | value | target | |',
  '|---|---:|---|---|',
  ...targets.map(([name, value, target, ok]) => `| ${name} | ${value} | ${target} | ${met(ok)} |`),
  '',
  '| borrower × lender | pairs | priced | with a zone | agreed (of zone) | agreements outside limits | offers outside limits | borrower asks to match | median rounds (zone) | median rounds to agree | Pareto distance | Nash distance | discretion given |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  row('all pairings', report),
  ...Object.entries(report.byPairing).map(([name, figures]) => row(name, figures)),
  '',
  `agreement rate over all pairs ${percent(report.agreementRate)}; negotiations per second ${Math.round(report.negotiationsPerSecond)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
