import { Callout, Card, H2, H3, HTMLTable, Tag } from '@blueprintjs/core';
import type { HistoryState } from '@pf/events';
import { ISSUES } from './timeline-model';
import { formatDateTime } from '../../../lib/display';

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
              {ISSUES.map((issue) => (
                <th key={issue.key}>{issue.label}</th>
              ))}
              <th>Round</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {offers.map((offer) => (
              <tr key={offer.offerId}>
                <td data-label="Side">{`${offer.agentName} (${offer.agentType})`}</td>
                {ISSUES.map((issue) => (
                  <td key={issue.key} data-label={issue.label}>
                    {issue.format(offer.terms[issue.key])}
                  </td>
                ))}
                <td data-label="Round">{offer.round}</td>
                <td data-label="Status">
                  {offer.status === 'open' ? 'On the table' : offer.status === 'accepted' ? 'Accepted' : 'Turned down'}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <H3 className="pf-h4 pf-small">Thread ({messages.length} messages)</H3>
      <ol className="pf-history-thread" data-testid="thread-at">
        {messages.map((message) => (
          <li key={message.id} data-testid="message-at">
            <strong>{message.fromAgentName}</strong>
            {message.isAutomated ? null : (
              <Tag minimal className="pf-history-person">
                written by a person
              </Tag>
            )}
            : {message.content}
          </li>
        ))}
      </ol>
    </Card>
  );
}
