import { Card, H2, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import type { AnalyticsPeriod } from '@pf/events';
import { useDailyAnalytics } from '../api/analytics';

/** "OfferMade" → "Offer made": an event type as a reader would say it. */
const eventLabel = (type: string) => type.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/ [A-Z]/g, (s) => s.toLowerCase());

/**
 * Firm Activity: how many of each event the firm's own agents, conversations and deals recorded in the period, from
 * the daily analytics consumer (GET /api/analytics/daily: never another firm's), busiest first. Counts are per UTC
 * day, so the period is its whole days.
 */
export function PlatformActivity({ period }: { period: AnalyticsPeriod }) {
  const daily = useDailyAnalytics(period);
  const totals = new Map<string, number>();
  for (const row of daily.data?.events ?? []) totals.set(row.type, (totals.get(row.type) ?? 0) + row.count);
  const rows = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const all = rows.reduce((n, [, count]) => n + count, 0);
  return (
    <Card className="pf-table-wrap">
      <H2 className="pf-h4">Firm Activity</H2>
      {daily.isError ? (
        <NonIdealState icon="error" description={daily.error.message} />
      ) : !daily.data ? (
        <Spinner size={20} />
      ) : rows.length === 0 ? (
        <NonIdealState icon="pulse" description="Nothing happened in your firm's agents, conversations and deals in this period yet." />
      ) : (
        <HTMLTable
          compact
          striped
          className="pf-full"
          data-testid="platform-activity"
          aria-label={`Your firm's events recorded in the last ${daily.data.days} days: ${all}`}
        >
          <thead>
            <tr>
              <th>Event</th>
              <th>Count</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([type, count]) => (
              <tr key={type} data-testid={`activity-${type}`}>
                <td>{eventLabel(type)}</td>
                <td>{count}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}
