import { ANALYTICS_PERIOD_LABELS, type AnalyticsReportView, toCsv } from '@pf/events';

export type AnalyticsTab = 'overview' | 'agents' | 'deals' | 'funnel';

/** The CSV of what the screen shows: the headline cards, then the open tab's table or chart series. */
export function reportCsv(report: AnalyticsReportView, tab: AnalyticsTab): string {
  const h = report.headline;
  const rows: (string | number | null)[][] = [
    ['Analytics & Reports', ANALYTICS_PERIOD_LABELS[report.period], report.from.slice(0, 10), report.to.slice(0, 10)],
    ['Figure', 'Value', 'Previous period', 'Change %'],
    ['Total Revenue', h.totalRevenue.value, h.totalRevenue.previous, h.totalRevenue.changePercent],
    ['Deals Closed', h.dealsClosed.value, h.dealsClosed.previous, h.dealsClosed.changePercent],
    ['Conversion Rate %', h.conversionRate.value, h.conversionRate.previous, h.conversionRate.changePercent],
    ['Avg Deal Size', h.avgDealSize.value, h.avgDealSize.previous, h.avgDealSize.changePercent],
    [],
  ];
  if (tab === 'overview') {
    rows.push(['Period start', 'Deals opened', 'Loan value', 'Revenue']);
    report.dealVolume.forEach((v, i) => rows.push([v.start.slice(0, 10), v.deals, v.value, report.revenue[i]?.revenue ?? 0]));
    rows.push([], ['Loan type', 'Deals', 'Share %']);
    report.loanTypes.forEach((t) => rows.push([t.name, t.deals, t.share]));
    rows.push([], ['Month', 'Commission earned', 'Deals completed', 'Commission due', 'Deals in progress']);
    report.commission.months.forEach((m) => rows.push([m.month, m.earned, m.completedDeals, m.due, m.dealsInProgress]));
  } else if (tab === 'agents') {
    rows.push(['Agent', 'Type', 'Deals', 'Negotiations', 'Conversion %', 'Revenue']);
    report.agents.forEach((a) => rows.push([a.name, a.type, a.deals, a.negotiations, a.conversion, a.revenue]));
  } else if (tab === 'deals') {
    rows.push(['Deal size', 'Deals', 'Share %']);
    report.dealSizes.forEach((d) => rows.push([d.band, d.deals, d.share]));
    rows.push([], ['From', 'To', 'Average days', 'Deals']);
    report.stageTimes.forEach((s) => rows.push([s.from, s.to, s.averageDays, s.deals]));
  } else {
    rows.push(['Stage', 'Count', '% of Leads', '% of previous step']);
    report.funnel.forEach((f) => rows.push([f.stage, f.count, f.percentOfFirst, f.percentOfPrevious]));
  }
  return toCsv(rows);
}
