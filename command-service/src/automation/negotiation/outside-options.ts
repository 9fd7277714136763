/**
 * A borrower negotiating with several lenders at once (as in ANL 2025's concurrent negotiations): what it has on
 * the table elsewhere, in the currency offers for the same initial period share, the true cost over that period. It
 * accepts an offer only if none open elsewhere costs it less, so the deal it agrees is the best it holds; once it
 * has agreed anywhere it says nothing more in its other conversations, which the process manager then closes with a
 * polite withdrawal.
 */
import { worth } from './offer-strategy';
import type { Side } from './setup';
import { offerToAnswer, type NegotiationState } from './state';

export interface OutsideOptions {
  /** The least true cost of an offer open to this borrower in another conversation for a product of the same initial period; null for none or a lender. */
  bestElsewhere: number | null;
  /**
   * The borrower of this conversation has already agreed terms in another: neither side may agree here (a
   * lender could otherwise accept the borrower's last offer after it agreed elsewhere).
   */
  agreedElsewhere: boolean;
}

export const NO_OUTSIDE_OPTIONS: OutsideOptions = { bestElsewhere: null, agreedElsewhere: false };

export function outsideOptions(here: NegotiationState, side: Side, others: readonly NegotiationState[]): OutsideOptions {
  let bestElsewhere: number | null = null;
  let agreedElsewhere = false;
  const borrowerId = here.setup.borrower.agentId;
  for (const other of others) {
    if (other.conversationId === here.conversationId || other.setup.borrower.agentId !== borrowerId) continue;
    if (other.status === 'agreed') agreedElsewhere = true;
    const [mine, theirs] = [here.setup.priced, other.setup.priced];
    if (side !== 'borrower' || !mine || !theirs || other.status !== 'negotiating' || other.isManualMode) continue;
    // Only a product of the same initial period is priced in the same currency (setup.ts, nextBest).
    if (theirs.product.initialPeriodMonths !== mine.product.initialPeriodMonths) continue;
    const offer = offerToAnswer(other, 'borrower');
    if (!offer) continue;
    const cost = worth(theirs, offer).trueCost;
    if (bestElsewhere === null || cost < bestElsewhere) bestElsewhere = cost;
  }
  return { bestElsewhere, agreedElsewhere };
}
