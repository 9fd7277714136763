/**
 * A borrower negotiating with several lenders at once (as in ANL 2025's concurrent negotiations): what it has on
 * the table elsewhere. It accepts an offer only if none open elsewhere is better for it, so the deal it agrees
 * is the best it holds; once it has agreed anywhere it says nothing more in its other conversations, which the
 * process manager then closes with a polite withdrawal.
 */
import { lastOffer, type NegotiationState } from './state';
import { otherSide, type Side } from './terms-space';
import { utility } from './utility';

export interface OutsideOptions {
  /** This side's utility, in this conversation's terms, of the best offer open to it in another conversation. */
  bestElsewhere: number | null;
  /**
   * The borrower of this conversation has already agreed terms in another: neither side may agree here (a
   * lender could otherwise accept the borrower's last offer after it agreed elsewhere).
   */
  agreedElsewhere: boolean;
}

export const NO_OUTSIDE_OPTIONS: OutsideOptions = { bestElsewhere: null, agreedElsewhere: false };

export function outsideOptions(here: NegotiationState, side: Side, others: readonly NegotiationState[]): OutsideOptions {
  const me = here.setup[side];
  let bestElsewhere: number | null = null;
  let agreedElsewhere = false;
  const borrowerId = here.setup.borrower.agentId;
  for (const other of others) {
    if (other.conversationId === here.conversationId) continue;
    if (other.status === 'agreed' && other.setup.borrower.agentId === borrowerId) agreedElsewhere = true;
    if (other.setup[side].agentId !== me.agentId || other.status !== 'negotiating' || other.isManualMode) continue;
    const offer = lastOffer(other);
    if (!offer || offer.status !== 'open' || offer.side !== otherSide(side)) continue;
    const worth = utility(me, offer.terms);
    if (bestElsewhere === null || worth > bestElsewhere) bestElsewhere = worth;
  }
  return { bestElsewhere, agreedElsewhere };
}
