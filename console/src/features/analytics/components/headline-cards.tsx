import { Card, Icon, type IconName } from '@blueprintjs/core';
import type { AnalyticsReportView, Headline } from '@pf/events';
import { compactPounds, CONVERSION_RATE_DEFINITION, pounds, rateText } from '@pf/events';
import { DefinedTitle } from '../../../components/success-rate';

type Key = keyof AnalyticsReportView['headline'];
const CARDS: { key: Key; title: string; icon: IconName; format: (v: number) => string; definition?: string }[] = [
  { key: 'totalRevenue', title: 'Total Revenue', icon: 'bank-account', format: compactPounds },
  { key: 'dealsClosed', title: 'Deals Closed', icon: 'tick-circle', format: (v) => String(v) },
  // The one success rate over the period (events/src/success-rate.ts), written as every screen writes it.
  { key: 'conversionRate', title: 'Conversion Rate', icon: 'trending-up', format: rateText, definition: CONVERSION_RATE_DEFINITION },
  { key: 'avgDealSize', title: 'Avg Deal Size', icon: 'bank-account', format: pounds },
];

/** "+12.5% from last period", or why there is no change to state. */
function changeText(h: Headline): { text: string; tone: '' | 'pf-down' | 'pf-flat' } {
  if (h.value === null) return { text: 'No data in this period', tone: 'pf-flat' };
  if (h.changePercent === null) {
    if (h.previous === null) return { text: 'No figure for the previous period', tone: 'pf-flat' };
    // The previous period was 0: a percentage of nothing says nothing.
    return h.value === 0
      ? { text: 'No change from last period', tone: 'pf-flat' }
      : { text: 'New this period (none in the last)', tone: '' };
  }
  const sign = h.changePercent > 0 ? '+' : '';
  return {
    text: `${sign}${h.changePercent.toFixed(1)}% from last period`,
    tone: h.changePercent < 0 ? 'pf-down' : h.changePercent === 0 ? 'pf-flat' : '',
  };
}

/** Four headline cards, each with its change versus the previous period of the same length. */
export function HeadlineCards({ report }: { report: AnalyticsReportView }) {
  return (
    <div className="pf-grid pf-grid-4">
      {CARDS.map((card) => {
        const h = report.headline[card.key];
        const change = changeText(h);
        return (
          <Card key={card.key} className="pf-stat-card" data-testid={`headline-${card.key}`}>
            <div className="pf-stat-head">
              {card.definition ? <DefinedTitle title={card.title} definition={card.definition} /> : <span>{card.title}</span>}
              <Icon icon={card.icon} />
            </div>
            <div className="pf-stat-value">{h.value === null ? '–' : card.format(h.value)}</div>
            <div className={`pf-stat-trend ${change.tone}`}>{change.text}</div>
          </Card>
        );
      })}
    </div>
  );
}
