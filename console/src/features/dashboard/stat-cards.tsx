import { Card, Icon, type IconName } from '@blueprintjs/core';
import { SuccessRateTitle, successRateText } from '../../components/success-rate';
import { plural, type StatsView, type WeeklyTrends } from '@pf/events';

type Trend = keyof WeeklyTrends;

const CARDS: {
  key: keyof Omit<StatsView, 'trends'>;
  title: string;
  icon: IconName;
  trend?: { of: Trend; one: string };
  percent?: boolean;
}[] = [
  { key: 'activeAgents', title: 'Active Agents', icon: 'predictive-analysis', trend: { of: 'agentsCreated', one: 'agent' } },
  { key: 'activeConversations', title: 'Active Conversations', icon: 'chat', trend: { of: 'conversationsStarted', one: 'conversation' } },
  { key: 'matchesFound', title: 'Matches Found', icon: 'exchange', trend: { of: 'matchesFound', one: 'match' } },
  { key: 'successRate', title: 'Success Rate', icon: 'trending-up', percent: true },
];

/** "3 new this week, 1 last week": counted from the events' times by the read side; nothing when nothing is known. */
function trendText(counts: WeeklyTrends[Trend], one: string): string {
  const many = one === 'match' ? 'matches' : `${one}s`;
  return `${plural(counts.thisWeek, `new ${one}`, `new ${many}`)} this week, ${counts.lastWeek} last week`;
}

/** The four figures of the dashboard, each with its week-on-week count where the data gives one. */
export function StatCards({ stats }: { stats: StatsView | undefined }) {
  return (
    <div className="pf-grid pf-grid-4">
      {CARDS.map((card) => (
        <Card key={card.key} className="pf-stat-card" data-testid={`stat-${card.key}`}>
          <div className="pf-stat-head">
            {card.key === 'successRate' ? <SuccessRateTitle /> : <span>{card.title}</span>}
            <Icon icon={card.icon} />
          </div>
          <div className="pf-stat-value">
            {!stats
              ? '–'
              : card.key === 'successRate'
                ? successRateText(stats.successRate)
                : `${stats[card.key]}${card.percent ? '%' : ''}`}
          </div>
          {card.trend && stats?.trends ? (
            <div className="pf-stat-trend" data-testid="trend">
              {trendText(stats.trends[card.trend.of], card.trend.one)}
            </div>
          ) : null}
        </Card>
      ))}
    </div>
  );
}
