import { pounds } from '@pf/events';
import { funnelStages, type FunnelState } from './funnel';

/** The funnel and the daily volumes as the job prints them (each stage's share is of the stage before). */
export function formatReport(state: FunnelState, position: string | null, at: Date): string {
  const lines = [`Conversion funnel at ${at.toISOString()} (position ${position ?? 'start'})`];
  let previous: number | null = null;
  for (const { stage, count } of funnelStages(state)) {
    const share = previous === null ? '' : previous === 0 ? '     -' : `${String(Math.round((count / previous) * 100)).padStart(5)}%`;
    lines.push(`  ${stage.padEnd(12)}${String(count).padStart(6)}${share}`);
    previous = count;
  }
  lines.push(
    'Daily volumes',
    `  ${'day'.padEnd(10)}  ${'conversations'.padStart(13)}  ${'offers'.padStart(6)}  ${'deals agreed'.padStart(12)}  ${'loans agreed'.padStart(14)}`,
  );
  for (const day of Object.keys(state.daily).sort()) {
    const v = state.daily[day]!;
    lines.push(
      `  ${day}  ${String(v.conversations).padStart(13)}  ${String(v.offers).padStart(6)}  ${String(v.dealsAgreed).padStart(12)}  ${pounds(v.loansAgreed).padStart(14)}`,
    );
  }
  return lines.join('\n');
}
