import { Intent, Tag } from '@blueprintjs/core';
import { percentage, plural, pounds } from '@pf/events';
import type { OfferStatus, ThreadOffer } from './thread-model';

const STATUS: Record<OfferStatus, { label: string; intent: Intent }> = {
  open: { label: 'Open', intent: Intent.PRIMARY },
  accepted: { label: 'Accepted', intent: Intent.SUCCESS },
  rejected: { label: 'Rejected', intent: Intent.DANGER },
  superseded: { label: 'Superseded', intent: Intent.NONE },
};

/** An offer as a card: its four terms in a small table and what became of it. */
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
          <tr>
            <th scope="row">Rate</th>
            <td>{percentage(offer.terms.interestRate, 3)}</td>
          </tr>
          <tr>
            <th scope="row">Loan</th>
            <td>{pounds(offer.terms.loanAmount)}</td>
          </tr>
          <tr>
            <th scope="row">Term</th>
            <td>{plural(offer.terms.termYears, 'year')}</td>
          </tr>
          <tr>
            <th scope="row">Fee</th>
            <td>{pounds(offer.terms.arrangementFee)}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}
