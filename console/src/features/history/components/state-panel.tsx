import { Callout, Card, H2, H3, HTMLTable, Tag } from '@blueprintjs/core';
import { moveReasonInWords, type HistoryState, type StandingOffer } from '@pf/events';
import { termsRows } from '../../../components/terms-figures';
import { formatDateTime } from '../../../lib/display';

/** The columns of a standing offer, as its terms' rows name them (a row an offer lacks, such as Product before products, shows "–"). */
const COLUMNS = ['Product', 'Initial period', 'Rate', 'Loan', 'Term', 'Fee', 'Cashback', 'Monthly payment', 'APRC'] as const;

const STATUS_WORDS: Record<StandingOffer['status'], string> = {
  open: 'On the table',
  accepted: 'Accepted',
  rejected: 'Turned down',
  superseded: 'Superseded',
};

const when = (iso: string) => formatDateTime(iso, { dateStyle: 'short', timeStyle: 'medium' });

/** The thread and each side's standing offer as they were at the moment looked at. */
export function StatePanel({ state }: { state: HistoryState | undefined }) {
  if (!state) return <Card className="pf-history-state">Loading the moment…</Card>;
  const { conversation, messages, offers } = state;
  return (
    <Card className="pf-history-state pf-narrow-aware" data-testid="state-at">
      <div className="pf-thread-head">
        <H2 className="pf-h4">As it stood {state.at.recordedAt ? `at ${when(state.at.recordedAt)}` : 'before it began'}</H2>
        {conversation ? (
          <span>
            <Tag minimal intent={conversation.status === 'active' ? 'success' : 'none'}>
              {conversation.status === 'active'
                ? 'Active'
                : `Completed (${conversation.outcome === 'agreed' ? 'agreed' : conversation.outcome === 'no_agreement' ? 'no agreement' : 'stopped'})`}
            </Tag>{' '}
            <Tag intent={conversation.isManualMode ? 'warning' : 'primary'} data-testid="mode-at">
              {conversation.isManualMode ? 'Manual control' : 'Automatic'}
            </Tag>
          </span>
        ) : null}
      </div>
      {!conversation ? <Callout>The conversation had not started yet.</Callout> : null}
      <H3 className="pf-h4 pf-small">Standing offers</H3>
      {offers.length === 0 ? (
        <p className="pf-muted">No offer on the table yet.</p>
      ) : (
        <HTMLTable compact striped className="pf-full-width pf-table-cards" data-testid="offers-at">
          <thead>
            <tr>
              <th>Side</th>
              {COLUMNS.map((label) => (
                <th key={label}>{label}</th>
              ))}
              <th>Round</th>
              <th>Status</th>
              <th>Why</th>
            </tr>
          </thead>
          <tbody>
            {offers.map((offer) => {
              // The terms and the figures the read side served with them (docs/behaviour/offers.md), as on offer cards.
              const rows = termsRows(offer.terms, offer.product, offer.figures);
              return (
                <tr key={offer.offerId} data-testid="offer-at">
                  <td data-label="Side">{`${offer.agentName} (${offer.agentType})`}</td>
                  {COLUMNS.map((label) => (
                    <td key={label} data-label={label}>
                      {rows.find((row) => row.label === label)?.value ?? '–'}
                    </td>
                  ))}
                  <td data-label="Round">{offer.round}</td>
                  <td data-label="Status">{STATUS_WORDS[offer.status]}</td>
                  <td data-label="Why" data-testid="offer-reason">
                    {offer.reason ? moveReasonInWords(offer.reason) : '–'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </HTMLTable>
      )}
      <H3 className="pf-h4 pf-small">Thread ({messages.length} messages)</H3>
      {/* A box that scrolls is a Tab stop with a name, so the keyboard can scroll it too (axe: scrollable-region-focusable). */}
      <ol
        className="pf-history-thread"
        data-testid="thread-at"
        tabIndex={0}
        aria-label={`Thread at this moment, ${messages.length} messages`}
      >
        {messages.map((message) => (
          <li key={message.id} data-testid="message-at">
            <strong>{message.fromAgentName}</strong>
            {message.isAutomated ? null : (
              <Tag minimal className="pf-history-person">
                Written by a person
              </Tag>
            )}
            : {message.content}
          </li>
        ))}
      </ol>
    </Card>
  );
}
