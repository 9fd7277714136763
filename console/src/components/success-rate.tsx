import { Icon } from '@blueprintjs/core';
import { rateText, SUCCESS_RATE_DEFINITION } from '@pf/events';

/** A figure's title with its definition as a tooltip, wherever it is shown (events/src/success-rate.ts). */
export function DefinedTitle({ title, definition, testId }: { title: string; definition: string; testId?: string }) {
  return (
    <span title={definition} aria-label={`${title}: ${definition}`} data-testid={testId}>
      {title} <Icon icon="info-sign" size={12} />
    </span>
  );
}

/** The one success rate's title, with its definition as a tooltip. */
export function SuccessRateTitle() {
  return <DefinedTitle title="Success Rate" definition={SUCCESS_RATE_DEFINITION} testId="success-rate-title" />;
}

/** The figure itself: a percentage to one decimal place, or a dash while no negotiation has ended. */
export const successRateText = rateText;
