import { Button, Spinner, Tab, Tabs } from '@blueprintjs/core';
import { Problem } from '../../../components/problem';
import { ANALYTICS_PERIOD_LABELS, ANALYTICS_PERIODS, type AnalyticsPeriod } from '@pf/events';
import { useState } from 'react';
import { ChoiceSelect } from '../../../components/choice-select';
import { PageHeader } from '../../../components/page-header';
import { downloadCsv } from '../../../lib/csv';
import { useAnalyticsReport } from '../api/analytics';
import { HeadlineCards } from './headline-cards';
import { OverviewTab } from './overview-tab';
import { AgentsTab, DealsTab, FunnelTab } from './other-tabs';
import { reportCsv, type AnalyticsTab } from './report-csv';

/** Analytics & Reports, from the analytics read model; live through `views_changed: analytics`. */
export function AnalyticsPage() {
  const [period, setPeriod] = useState<AnalyticsPeriod>('last30');
  const [tab, setTab] = useState<AnalyticsTab>('overview');
  const report = useAnalyticsReport(period);
  const data = report.data;
  return (
    <>
      <PageHeader title="Analytics & Reports" subtitle="Platform-wide figures from every negotiation and deal">
        <ChoiceSelect
          label="Period"
          choices={ANALYTICS_PERIODS}
          value={period}
          labelOf={(p) => ANALYTICS_PERIOD_LABELS[p]}
          onChange={setPeriod}
        />
        <Button
          icon="download"
          text="Export Report"
          disabled={!data}
          onClick={() => data && downloadCsv(`analytics-${data.period}-${data.to.slice(0, 10)}.csv`, reportCsv(data, tab))}
        />
      </PageHeader>
      {report.isError ? (
        <Problem icon="error" title="Could not load the figures" description={String(report.error.message)} />
      ) : !data ? (
        <Spinner />
      ) : (
        <>
          <HeadlineCards report={data} />
          <Tabs
            id="analytics-tabs"
            selectedTabId={tab}
            onChange={(id) => setTab(id as AnalyticsTab)}
            className="pf-section pf-tabs"
            renderActiveTabPanelOnly
          >
            <Tab id="overview" title="Overview" panel={<OverviewTab report={data} />} />
            <Tab id="agents" title="Agent Performance" panel={<AgentsTab report={data} />} />
            <Tab id="deals" title="Deal Analysis" panel={<DealsTab report={data} />} />
            <Tab id="funnel" title="Conversion Funnel" panel={<FunnelTab report={data} />} />
          </Tabs>
        </>
      )}
    </>
  );
}
