import { Icon } from '@blueprintjs/core';
import { SUCCESS_RATE_DEFINITION } from '@pf/events';

/** The one success rate's title, with its definition as a tooltip, wherever it is shown (events/src/success-rate.ts). */
export function SuccessRateTitle() {
  return (
    <span title={SUCCESS_RATE_DEFINITION} aria-label={`Success Rate: ${SUCCESS_RATE_DEFINITION}`} data-testid="success-rate-title">
      Success Rate <Icon icon="info-sign" size={12} />
    </span>
  );
}

/** The figure itself: a whole percentage, or a dash while no negotiation has ended. */
export const successRateText = (rate: number | null | undefined) => (rate === null || rate === undefined ? '–' : `${rate}%`);
