import { Card, H2, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { plural, pounds, type CommissionView } from '@pf/events';
import { monthLabel } from '../../../lib/format';

/**
 * Commission (docs/behaviour/analytics.md): the procuration fees lenders pay the firm's brokers, as each agreement
 * recorded them, by month: earned when the deal completed (lenders pay on completion), due while it is agreed and in
 * progress. Served whole by the read side; nothing is computed here.
 */
export function CommissionCard({ commission }: { commission: CommissionView }) {
  const any = commission.months.some((m) => m.completedDeals + m.dealsInProgress > 0);
  return (
    <Card data-testid="commission">
      <H2 className="pf-h4">Commission</H2>
      <p className="pf-small" data-testid="commission-totals">
        Earned {pounds(commission.earned)} · Due {pounds(commission.due)}
      </p>
      {!any ? (
        <NonIdealState
          icon="bank-account"
          description="No deal your brokers introduced was completed or agreed in this period: commission is the procuration fee a lender pays on completion."
        />
      ) : (
        <HTMLTable compact striped className="pf-full-width" data-testid="commission-months">
          <caption className="pf-visually-hidden">Commission by month: earned on completion, due on deals in progress</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col">Earned (completed)</th>
              <th scope="col">Due (in progress)</th>
            </tr>
          </thead>
          <tbody>
            {commission.months.map((m) => (
              <tr key={m.month} data-testid="commission-month">
                <th scope="row">{monthLabel(m.month)}</th>
                <td>{`${pounds(m.earned)} (${plural(m.completedDeals, 'deal')})`}</td>
                <td>{`${pounds(m.due)} (${plural(m.dealsInProgress, 'deal')})`}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
