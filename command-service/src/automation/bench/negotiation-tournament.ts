/**
 * `npm run bench:negotiation`: runs the tournament and prints its figures. Options: --pairs N (default 5000),
 * --seed N (default 1).
 */
import { runTournament } from './tournament';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}

const pairs = option('pairs', 5000);
const seed = option('seed', 1);
// Warm the JIT so negotiations per second measures steady state, not compilation.
runTournament({ pairs: 200, seed: seed + 1 });
const report = runTournament({ pairs, seed });
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const lines = [
  `negotiation tournament: ${report.pairs} generated borrower–lender pairs (seed ${seed})`,
  `  pairs with a zone of agreement   ${report.pairsWithZone}`,
  `  agreement rate                   ${percent(report.agreementRate)} of all pairs, ${percent(report.agreementRateWithZone)} of pairs with a zone`,
  `  agreements without a zone        ${report.agreementsWithoutZone}`,
  `  median rounds (offers)           ${report.medianRounds}`,
  `  mean distance to Pareto frontier ${report.meanDistanceToPareto.toFixed(4)} (utility units, 0..1 per side)`,
  `  mean distance to Nash point      ${report.meanDistanceToNash.toFixed(4)}`,
  `  negotiations per second          ${Math.round(report.negotiationsPerSecond)}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
