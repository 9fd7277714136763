import { Button, Callout, Dialog, DialogBody, H5, Intent, Spinner } from '@blueprintjs/core';
import { ltvPercent, DEAL_STAGES, type DealDetailView, type DealStage } from '@pf/events';
import { useState } from 'react';
import { Link } from 'wouter';
import { pounds } from '@pf/events';
import { shortDate } from '../../../components/figure-cards';
import { dealTermsRows, TermsRows } from '../../../components/terms-figures';
import { failureReason } from '../../../lib/api-client';
import { useMayWrite } from '../../../components/writers-only';
import { useChangeDeal, useDeal } from '../api/deals';
import { DealStageTag, DealStatusTag } from './deal-tags';
import { formatDateTime } from '../../../lib/display';

/** The stage a deal moves to next (application → valuation → underwriting → completed), if any. */
function nextStage(deal: Pick<DealDetailView, 'stage' | 'status'>): DealStage | null {
  if (deal.status === 'cancelled' || deal.status === 'completed') return null;
  return DEAL_STAGES[DEAL_STAGES.indexOf(deal.stage) + 1] ?? null;
}

/** View: a deal's terms, parties, stage (advanced one step at a time), timeline and its conversation. */
export function DealDetailDialog({ dealId, onClose }: { dealId: string | null; onClose: () => void }) {
  const deal = useDeal(dealId);
  const change = useChangeDeal();
  const mayWrite = useMayWrite();
  const [error, setError] = useState<string | null>(null);
  const d = deal.data;
  const next = d ? nextStage(d) : null;

  const advance = async () => {
    if (!d || !next) return;
    setError(null);
    try {
      await change.mutateAsync({ id: d.id, changes: { stage: next } });
    } catch (failure) {
      setError(failureReason(failure));
    }
  };

  return (
    <Dialog isOpen={dealId !== null} onClose={onClose} title="Deal" className="pf-wide-dialog">
      <DialogBody>
        {!d ? (
          <Spinner />
        ) : (
          <div data-testid="deal-detail">
            <H5>{d.propertyAddress || 'Address needed: add it with Edit'}</H5>
            <div className="pf-tags">
              <DealStatusTag status={d.status} />
              <DealStageTag stage={d.stage} />
            </div>
            <table className="pf-facts">
              <tbody>
                <tr>
                  <th scope="row">Property value</th>
                  <td>{pounds(d.propertyValue)}</td>
                </tr>
                <tr>
                  <th scope="row">LTV</th>
                  <td>{ltvPercent(d.ltv)}</td>
                </tr>
                <TermsRows rows={dealTermsRows(d)} />
                <tr>
                  <th>Borrower</th>
                  <td>{d.borrowerName}</td>
                </tr>
                <tr>
                  <th>Lender</th>
                  <td>{d.lenderName}</td>
                </tr>
                <tr>
                  <th>Broker</th>
                  <td>{d.brokerName ?? '–'}</td>
                </tr>
                {d.brokerName !== null ? (
                  <tr data-testid="deal-procuration-fee">
                    <th>Procuration fee</th>
                    <td>{d.procurationFee !== null ? `${pounds(d.procurationFee)}, paid by the lender to the broker` : 'Not recorded'}</td>
                  </tr>
                ) : null}
                <tr>
                  <th>Target completion</th>
                  <td>{shortDate(d.targetCompletion)}</td>
                </tr>
              </tbody>
            </table>
            {next && mayWrite ? (
              <Button
                intent={Intent.PRIMARY}
                icon="arrow-right"
                loading={change.isPending}
                text={`Advance to ${next}`}
                onClick={() => void advance()}
              />
            ) : null}
            {error ? (
              <Callout intent={Intent.DANGER} className="pf-section">
                {error}
              </Callout>
            ) : null}
            {d.conversationId !== null ? (
              <p className="pf-section">
                <Link href={`/conversations/${d.conversationId}`}>Open the conversation where the terms were agreed</Link>
              </p>
            ) : null}
            <H5 className="pf-section">Timeline</H5>
            <ol className="pf-timeline" data-testid="deal-timeline">
              {d.timeline.map((entry, index) => (
                <li key={index}>
                  <span className="pf-muted pf-small">{formatDateTime(entry.at)}</span> {entry.text}
                </li>
              ))}
            </ol>
          </div>
        )}
      </DialogBody>
    </Dialog>
  );
}
