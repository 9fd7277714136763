import type { CheckReport, Violation } from './rules';
import type { SeedReading } from './run-seeds';

export interface Readings {
  readonly seeds: readonly SeedReading[];
  readonly steps: number;
  readonly tournament: { pairs: number; seed: number; check: CheckReport; ms: number } | null;
  readonly ms: number;
}

const FIRST_FEW = 5;

function printCheck(title: string, check: CheckReport, print: (line: string) => void, all: boolean): void {
  print(`\n${title}: ${check.conversations} conversations read, ${check.withOffers} with offers`);
  print('| rule | checked | violations |');
  print('|---|---:|---:|');
  for (const rule of check.rules) {
    const aside = rule.setAside > 0 ? `; ${rule.setAside} of people's set aside` : '';
    print(`| ${rule.name} | ${rule.checked} (${rule.unit}${aside}) | ${rule.violations} |`);
  }
  const byRule = new Map<string, Violation[]>();
  for (const violation of check.violations) byRule.set(violation.rule, [...(byRule.get(violation.rule) ?? []), violation]);
  for (const [rule, violations] of byRule) {
    print(
      `\n${rule}: ${violations.length} violation(s)${!all && violations.length > FIRST_FEW ? ` (the first ${FIRST_FEW}; --all for every one)` : ''}`,
    );
    for (const v of all ? violations : violations.slice(0, FIRST_FEW))
      print(`- ${v.source}, conversation ${v.conversationId}: "${v.text}" — ${v.detail}`);
  }
}

/** The same rules' counts summed over several reports (the seeds'). */
function merged(reports: readonly CheckReport[]): CheckReport {
  const first = reports[0];
  return {
    conversations: reports.reduce((sum, r) => sum + r.conversations, 0),
    withOffers: reports.reduce((sum, r) => sum + r.withOffers, 0),
    rules: (first?.rules ?? []).map((rule, index) => ({
      ...rule,
      checked: reports.reduce((sum, r) => sum + r.rules[index]!.checked, 0),
      setAside: reports.reduce((sum, r) => sum + r.rules[index]!.setAside, 0),
      violations: reports.reduce((sum, r) => sum + r.rules[index]!.violations, 0),
    })),
    violations: reports.flatMap((r) => r.violations),
  };
}

/**
 * Prints what was read and checked, rule by rule, and every problem; true when the reading passes: no violation, every
 * conversation readable, and something to read (each seed at least one conversation with offers; the tournament too).
 */
export function printReadings(readings: Readings, print: (line: string) => void, options: { all?: boolean } = {}): boolean {
  const all = options.all ?? false;
  const failures: string[] = [];
  if (readings.seeds.length > 0) {
    const check = merged(readings.seeds.map((s) => s.check));
    printCheck(`Simulation, seeds ${readings.seeds[0]!.seed}-${readings.seeds.at(-1)!.seed} × ${readings.steps} steps`, check, print, all);
    for (const seed of readings.seeds)
      if (seed.check.withOffers === 0) failures.push(`seed ${seed.seed}: no conversation with offers was read`);
    failures.push(...readings.seeds.flatMap((s) => s.problems));
    if (check.violations.length > 0) failures.push(`${check.violations.length} violation(s) in the simulation's conversations`);
    const broken = readings.seeds.reduce((sum, s) => sum + s.simulationViolations, 0);
    if (broken > 0) print(`\n(the simulation's own invariants were broken ${broken} time(s) on the way: npm run simulate reports them)`);
  }
  const tournament = readings.tournament;
  if (tournament) {
    printCheck(`Tournament, ${tournament.pairs} pairs (seed ${tournament.seed})`, tournament.check, print, all);
    if (tournament.check.withOffers === 0) failures.push('the tournament gave no conversation with offers');
    if (tournament.check.violations.length > 0)
      failures.push(`${tournament.check.violations.length} violation(s) in the tournament's conversations`);
  }
  print(`\nRead in ${(readings.ms / 1000).toFixed(1)} s${tournament ? ` (the tournament ${(tournament.ms / 1000).toFixed(1)} s)` : ''}.`);
  for (const failure of failures) print(`FAILED: ${failure}`);
  if (failures.length === 0) print('Every rule kept.');
  return failures.length === 0;
}
