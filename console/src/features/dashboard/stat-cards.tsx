import { Card, Icon, type IconName } from '@blueprintjs/core';
import type { StatsView } from '@pf/events';

const CARDS: { key: keyof StatsView; title: string; icon: IconName; trend: string; percent?: boolean }[] = [
  { key: 'activeAgents', title: 'Active Agents', icon: 'predictive-analysis', trend: '+2 from last week' },
  { key: 'activeConversations', title: 'Active Conversations', icon: 'chat', trend: '+3 new today' },
  { key: 'matchesFound', title: 'Matches Found', icon: 'exchange', trend: '+5 this week' },
  { key: 'successRate', title: 'Success Rate', icon: 'trending-up', trend: '+2% improvement', percent: true },
];

/** The four figures (spec §2); the trend lines are fixed text, not data. */
export function StatCards({ stats }: { stats: StatsView | undefined }) {
  return (
    <div className="pf-grid pf-grid-4">
      {CARDS.map((card) => (
        <Card key={card.key} className="pf-stat-card" data-testid={`stat-${card.key}`}>
          <div className="pf-stat-head">
            <span>{card.title}</span>
            <Icon icon={card.icon} />
          </div>
          <div className="pf-stat-value">
            {stats ? `${stats[card.key]}${card.percent ? '%' : ''}` : '–'}
          </div>
          <div className="pf-stat-trend">{card.trend}</div>
        </Card>
      ))}
    </div>
  );
}
