import { ScrollHint } from '../../../components/scroll-hint';
import { Button, Card, H2, HTMLTable, NonIdealState, ProgressBar } from '@blueprintjs/core';
import type { AnalyticsReportView } from '@pf/events';
import { useState } from 'react';
import { capitalised, plural, pounds } from '@pf/events';
import { duration, percent } from '../../../lib/format';

/** Agent Performance: a leaderboard by revenue or by conversion. */
export function AgentsTab({ report }: { report: AnalyticsReportView }) {
  const [by, setBy] = useState<'revenue' | 'conversion'>('revenue');
  const rows = [...report.agents].sort((a, b) =>
    by === 'revenue'
      ? b.revenue - a.revenue || (b.conversion ?? -1) - (a.conversion ?? -1)
      : (b.conversion ?? -1) - (a.conversion ?? -1) || b.revenue - a.revenue,
  );
  if (rows.length === 0)
    return <NonIdealState icon="people" description="No negotiation finished and no deal agreed in this period yet." />;
  const sortButton = (key: 'revenue' | 'conversion', text: string) => (
    <Button
      variant="minimal"
      text={text}
      endIcon={by === key ? 'sort-desc' : 'double-caret-vertical'}
      onClick={() => setBy(key)}
      aria-pressed={by === key}
    />
  );
  return (
    <Card className="pf-section pf-table-wrap">
      <H2 className="pf-h4">Agent Performance</H2>
      <ScrollHint />
      <HTMLTable compact striped className="pf-full" data-testid="agent-leaderboard">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Type</th>
            <th>Deals</th>
            <th>{sortButton('conversion', 'Conversion')}</th>
            <th>{sortButton('revenue', 'Revenue')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.agentId}>
              <td>{a.name}</td>
              <td>{capitalised(a.type)}</td>
              <td>{a.deals}</td>
              <td>{a.conversion === null ? '–' : `${percent(a.conversion)} of ${a.negotiations}`}</td>
              <td>{pounds(a.revenue)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Card>
  );
}

/** Deal Analysis: the deal size bands (docs/behaviour/analytics.md) and the average time between the steps of a deal. */
export function DealsTab({ report }: { report: AnalyticsReportView }) {
  const total = report.dealSizes.reduce((n, d) => n + d.deals, 0);
  return (
    <div className="pf-grid pf-grid-2 pf-section">
      <Card>
        <H2 className="pf-h4">Deal Size Distribution</H2>
        {total === 0 ? (
          <NonIdealState icon="horizontal-bar-chart" description="No deals agreed in this period yet." />
        ) : (
          <ul className="pf-list" data-testid="deal-sizes">
            {report.dealSizes.map((d) => (
              <li key={d.band}>
                <div className="pf-row-between">
                  <span>{d.band}</span>
                  <span>
                    {d.deals} deals ({percent(d.share)})
                  </span>
                </div>
                <ProgressBar value={d.share / 100} stripes={false} animate={false} aria-label={`${d.band}: ${d.share}%`} />
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card>
        <H2 className="pf-h4">Average Processing Times</H2>
        <ul className="pf-list" data-testid="stage-times">
          {report.stageTimes.map((s) => (
            <li key={`${s.from}-${s.to}`} className="pf-row-between">
              <span>
                {s.from} → {s.to}
              </span>
              <strong>{s.averageDays === null ? 'No deals yet' : `${duration(s.averageDays)} (${plural(s.deals, 'deal')})`}</strong>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

/** Conversion Funnel: each stage's count, its share of the first stage and of the stage before. */
export function FunnelTab({ report }: { report: AnalyticsReportView }) {
  const first = report.funnel[0]?.count ?? 0;
  if (first === 0)
    return (
      <NonIdealState icon="filter" description="No borrower agents were created in this period, so the funnel has no leads to follow." />
    );
  return (
    <Card className="pf-section">
      <H2 className="pf-h4">Conversion Funnel</H2>
      <ol className="pf-list" data-testid="funnel">
        {report.funnel.map((f) => (
          <li key={f.stage} data-testid={`funnel-${f.stage}`}>
            <div className="pf-row-between">
              <span>
                <strong>{f.stage}</strong> <span className="pf-muted pf-small">{f.description}</span>
              </span>
              <span>
                <strong className="pf-funnel-count">{f.count}</strong> · {f.percentOfFirst === null ? '–' : percent(f.percentOfFirst)} of
                leads
                {f.percentOfPrevious === null ? '' : ` · ${percent(f.percentOfPrevious)} of previous`}
              </span>
            </div>
            <div className="pf-funnel-bar" style={{ width: `${Math.max(1, f.percentOfFirst ?? 0)}%` }} />
          </li>
        ))}
      </ol>
    </Card>
  );
}
