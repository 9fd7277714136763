import { HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { ratePercent, sharePercent, capitalised, pounds, poundsAndPence, plural, type SourcingResult } from '@pf/events';

const VERDICT_INTENT = { pass: Intent.SUCCESS, warn: Intent.WARNING, fail: Intent.DANGER } as const;

/**
 * A borrower's sourcing as its last Match recorded it (docs/behaviour/products.md, "Sourcing"): every product line,
 * best first by the true cost over the initial period, with its verdict, reasons and figures. The figures are the
 * ones the matcher recorded from the one module of regulated figures; nothing is computed here.
 */
export function SourcingTable({ sourcing }: { sourcing: SourcingResult }) {
  const shortlisted = new Set(sourcing.shortlist);
  return (
    <>
      <p className="pf-small" data-testid="sourcing-summary">
        {plural(sourcing.totalLines, 'product')} sourced; negotiating with {plural(sourcing.shortlist.length, 'lender')}, the cheapest over
        the initial period.
      </p>
      <HTMLTable compact striped className="pf-small" data-testid="sourcing-table">
        <thead>
          <tr>
            <th>Lender</th>
            <th>Product</th>
            <th>Verdict</th>
            <th>Initial rate</th>
            <th>Fee</th>
            <th>Monthly payment</th>
            <th>True cost (initial period)</th>
            <th>APRC</th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          {sourcing.lines.map((line) => (
            <tr key={`${line.lenderAgentId}:${line.productId}:${line.feeFree}`} data-testid="sourcing-line">
              <td>
                {line.lenderName}
                {shortlisted.has(line.lenderAgentId) ? (
                  <Tag minimal intent={Intent.PRIMARY}>
                    Shortlist
                  </Tag>
                ) : null}
              </td>
              <td>
                {line.productName} ({line.productType}, {line.initialPeriodMonths / 12} years)
              </td>
              <td>
                <Tag minimal intent={VERDICT_INTENT[line.verdict]}>
                  {capitalised(line.verdict)}
                </Tag>
              </td>
              <td>{line.quote ? ratePercent(line.quote.initialRatePercent) : '–'}</td>
              <td>{line.quote ? `${pounds(line.quote.fee)}${line.quote.feeAdded ? ' (added)' : ''}` : '–'}</td>
              <td>{line.quote ? poundsAndPence(line.quote.monthlyPayment) : '–'}</td>
              <td>{line.quote ? poundsAndPence(line.quote.trueCostOverInitialPeriod) : '–'}</td>
              <td>{line.quote ? sharePercent(line.quote.aprc) : '–'}</td>
              <td>
                {line.reasons
                  .filter((reason) => reason.verdict !== 'pass')
                  .map((reason) => `${reason.criterion}: ${reason.detail}`)
                  .join('; ') || 'Meets every criterion'}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {sourcing.totalLines > sourcing.lines.length ? (
        <p className="pf-muted pf-small">and {plural(sourcing.totalLines - sourcing.lines.length, 'more line')}, each failing</p>
      ) : null}
    </>
  );
}
