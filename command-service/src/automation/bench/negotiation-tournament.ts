/**
 * `npm run bench:negotiation`: runs the tournament and prints its figures, overall and per strategy pairing,
 * against the targets in bench/README.md. Options: --pairs N (default 5000), --seed N (default 1), --classic.
 */
import { runTournament, type PairingFigures } from './tournament';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}

const pairs = option('pairs', 5000);
const seed = option('seed', 1);
// --classic: the spec's six criteria only, the pairs the first tournament measured, for comparison.
const lendingCriteria = !process.argv.includes('--classic');
// Warm the JIT so negotiations per second measures steady state, not compilation.
runTournament({ pairs: 200, seed: seed + 1 });
const report = runTournament({ pairs, seed, lendingCriteria });
const again = runTournament({ pairs, seed, lendingCriteria });
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const met = (ok: boolean) => (ok ? 'met' : 'NOT MET');

const targets = [
  ['agreement where a zone exists', percent(report.agreementRateWithZone), '>= 99%', report.agreementRateWithZone >= 0.99],
  [
    'agreements outside limits',
    String(report.agreementsOutsideLimits + report.agreementsWithoutZone),
    '0',
    report.agreementsOutsideLimits + report.agreementsWithoutZone === 0,
  ],
  ['mean distance to Pareto frontier', report.meanDistanceToPareto.toFixed(4), '<= 0.02', report.meanDistanceToPareto <= 0.02],
  ['mean distance to Nash point', report.meanDistanceToNash.toFixed(4), '<= 0.08', report.meanDistanceToNash <= 0.08],
  ['median rounds (offers), pairs with a zone', String(report.medianRoundsWithZone), '<= 6', report.medianRoundsWithZone <= 6],
  [
    'deterministic by seed (a second run)',
    JSON.stringify(again.byPairing) === JSON.stringify(report.byPairing) ? 'same' : 'different',
    'same',
    JSON.stringify(again.byPairing) === JSON.stringify(report.byPairing),
  ],
] as const;

const row = (name: string, f: PairingFigures) =>
  `| ${name} | ${f.pairs} | ${f.pairsWithZone} | ${percent(f.agreementRateWithZone)} | ${f.agreementsOutsideLimits + f.agreementsWithoutZone} | ${f.medianRounds} | ${f.medianRoundsWithZone} | ${f.medianRoundsToAgreement} | ${f.meanDistanceToPareto.toFixed(4)} | ${f.meanDistanceToNash.toFixed(4)} |`;

const lines = [
  `negotiation tournament: ${report.pairs} generated borrower–lender pairs (seed ${seed}${lendingCriteria ? '' : ', spec criteria only'})`,
  '',
  '| target | value | target | |',
  '|---|---:|---|---|',
  ...targets.map(([name, value, target, ok]) => `| ${name} | ${value} | ${target} | ${met(ok)} |`),
  '',
  '| borrower × lender | pairs | with a zone | agreed (of zone) | outside limits | median rounds (all) | median rounds (zone) | median rounds to agree | Pareto distance | Nash distance |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  row('all pairings', report),
  ...Object.entries(report.byPairing).map(([name, figures]) => row(name, figures)),
  '',
  `agreement rate over all pairs ${percent(report.agreementRate)}; negotiations per second ${Math.round(report.negotiationsPerSecond)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
