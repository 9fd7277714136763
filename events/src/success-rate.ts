import type { ConversationOutcome } from './conversation';
import type { LeadStatus } from './matching';

/**
 * The figures that count negotiations, deals and leads, each defined once (docs/behaviour/figures.md): what a screen
 * shows under a name is computed with the rule written here, and the name's definition is its tooltip.
 */

/** A negotiation has ended once it has any outcome: terms agreed, ended without agreement, or stopped. */
export const ENDED_OUTCOMES: readonly ConversationOutcome[] = ['agreed', 'no_agreement', 'stopped'];

export const SUCCESS_RATE_DEFINITION =
  'Agreed ÷ negotiations ended: of your firm’s negotiations that have ended (terms agreed, no agreement, or stopped, for instance because the borrower agreed terms elsewhere), the share that agreed, to one decimal place. Negotiations still running are not counted.';

export const CONVERSION_RATE_DEFINITION =
  'The success rate of the period: of your firm’s negotiations that ended in the period (terms agreed, no agreement, or stopped), the share that agreed, to one decimal place.';

/** Agreed over ended, as a percentage to one decimal place; null while none has ended. */
export function successRate(agreed: number, ended: number): number | null {
  return ended > 0 ? Math.round((1000 * agreed) / ended) / 10 : null;
}

/** "54.2%", or a dash while nothing has ended: how every screen writes the success and conversion rates. */
export const rateText = (rate: number | null | undefined): string => (rate === null || rate === undefined ? '–' : `${rate.toFixed(1)}%`);

export const ACTIVE_LEADS_DEFINITION =
  'Leads whose status is Active: agents of your firm that are looking (not paused) and have not been matched yet. Matched and paused ones are counted under their own status.';

/** A lead's status: cancelled when paused, matched once the matcher has paired it, else active (looking). */
export function leadStatusOf(lead: { isActive: boolean; matchCount: number }): LeadStatus {
  return !lead.isActive ? 'cancelled' : lead.matchCount > 0 ? 'matched' : 'active';
}

export const DEALS_OPENED_DEFINITION =
  'Deals opened: the deals your firm is party to that opened in the period, whether agreed in a negotiation (a Deal agreed event, then Deal opened) or entered with New Deal (Deal opened only). Firm Activity’s “Deal opened” row counts the same deals.';
