import { Card, H2, NonIdealState } from '@blueprintjs/core';
import type { AnalyticsReportView } from '@pf/events';
import { BarChart, LineChart, PieChart } from '../../../components/charts/charts';
import { compactPounds, DEALS_OPENED_DEFINITION } from '@pf/events';
import { DefinedTitle } from '../../../components/success-rate';
import { monthLabel, shortDate } from '../../../lib/format';
import { CommissionCard } from './commission-card';
import { PlatformActivity } from './platform-activity';

const bucketLabel = (report: AnalyticsReportView, start: string) =>
  report.bucket === 'month' ? monthLabel(start.slice(0, 7)) : shortDate(start);

export function OverviewTab({ report }: { report: AnalyticsReportView }) {
  const agreed = report.dealVolume.reduce((n, v) => n + v.deals, 0);
  const revenue = report.revenue.reduce((n, v) => n + v.revenue, 0);
  return (
    <div className="pf-grid pf-grid-2 pf-section">
      <Card>
        <H2 className="pf-h4">
          <DefinedTitle title="Deal Volume" definition={DEALS_OPENED_DEFINITION} testId="deal-volume-title" />
        </H2>
        {agreed === 0 ? (
          <NonIdealState icon="timeline-line-chart" description="No deals agreed in this period yet." />
        ) : (
          <LineChart
            title="Deal volume"
            description={`Deals opened per ${report.bucket}: ${agreed} in the period.`}
            series={[{ key: 'Deals opened', points: report.dealVolume.map((v) => ({ x: bucketLabel(report, v.start), y: v.deals })) }]}
            format={(v) => (Number.isInteger(v) ? String(v) : '')}
          />
        )}
      </Card>
      <Card>
        <H2 className="pf-h4">Revenue</H2>
        {revenue === 0 ? (
          <NonIdealState
            icon="timeline-bar-chart"
            description="No deal completed in this period, so no revenue yet: revenue is the arrangement fee and the procuration fee recorded on completed deals."
          />
        ) : (
          <BarChart
            title="Revenue"
            description={`Arrangement fees and the procuration fees recorded on deals completed per ${report.bucket}.`}
            points={report.revenue.map((v) => ({ x: bucketLabel(report, v.start), y: v.revenue }))}
            format={compactPounds}
          />
        )}
      </Card>
      <Card>
        <H2 className="pf-h4">Loan Types</H2>
        {agreed === 0 ? (
          <NonIdealState icon="pie-chart" description="No deals agreed in this period yet." />
        ) : (
          <PieChart
            title="Loan types"
            description="Share of the deals agreed in the period by the borrower's property type."
            slices={report.loanTypes.map((t) => ({ name: t.name, value: t.deals, label: `${t.share}% (${t.deals})` }))}
          />
        )}
      </Card>
      <CommissionCard commission={report.commission} />
      <PlatformActivity period={report.period} />
    </div>
  );
}
