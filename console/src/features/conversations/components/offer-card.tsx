import { Intent, Tag } from '@blueprintjs/core';
import type { OfferStatus } from '@pf/events';
import { TermsRows, termsRows } from '../../../components/terms-figures';
import type { ThreadOffer } from './thread-model';

const STATUS: Record<OfferStatus, { label: string; intent: Intent }> = {
  open: { label: 'Open', intent: Intent.PRIMARY },
  accepted: { label: 'Accepted', intent: Intent.SUCCESS },
  rejected: { label: 'Rejected', intent: Intent.DANGER },
  superseded: { label: 'Superseded', intent: Intent.NONE },
};

/** An offer as a card: its product and terms with the figures served with them (docs/behaviour/offers.md), and what became of it. */
export function OfferCard({ offer, by }: { offer: ThreadOffer; by: string }) {
  const status = STATUS[offer.status];
  return (
    <div className={`pf-offer-card pf-offer-${offer.status}`} data-testid="offer-card">
      <div className="pf-offer-head">
        <strong>Offer {offer.round + 1}</strong>
        <Tag minimal intent={status.intent} data-testid="offer-status">
          {status.label}
        </Tag>
      </div>
      <table className="pf-offer-terms">
        <caption className="pf-visually-hidden">{`Offer ${offer.round + 1} from ${by}: ${status.label.toLowerCase()}`}</caption>
        <tbody>
          <TermsRows rows={termsRows(offer.terms, offer.product, offer.figures)} />
        </tbody>
      </table>
    </div>
  );
}
