/**
 * The one success rate (docs/decisions/firms-and-visibility.md): of a firm's negotiations that ended, agreed
 * or without agreement, the share that agreed, as a whole percentage. Conversations stopped (an agent paused or
 * deleted) and those still running do not count. The dashboard, Conversations and Matching & Leads show this
 * figure, with this definition in a tooltip.
 */
export const SUCCESS_RATE_DEFINITION =
  'Agreed ÷ negotiations ended: of your firm’s negotiations that ended (agreed, or ended without agreement), the share that agreed. Negotiations still running or stopped are not counted.';

/** Agreed over ended, as a whole percentage; null while none has ended. */
export function successRate(agreed: number, ended: number): number | null {
  return ended > 0 ? Math.round((100 * agreed) / ended) : null;
}
