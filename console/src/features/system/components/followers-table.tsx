import { Card, H2, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { capitalised } from '@pf/events';
import type { SystemView } from '@pf/events';
import { milliseconds, perSecond, seconds } from './figures';

const STATE_INTENT: Record<SystemView['followers'][number]['state'], Intent> = {
  starting: Intent.PRIMARY,
  running: Intent.SUCCESS,
  standby: Intent.NONE,
  failing: Intent.DANGER,
  stopped: Intent.WARNING,
};

/** Every follower of the event stream in this process: its state, how far behind it is, and how fast it goes. */
export function FollowersTable({ followers }: { followers: SystemView['followers'] }) {
  return (
    <Card className="pf-card">
      <H2 className="pf-h4">Followers of the event stream</H2>
      <HTMLTable compact striped className="pf-full-width" aria-label="Followers">
        <thead>
          <tr>
            <th>Follower</th>
            <th>State</th>
            <th>Lag (events)</th>
            <th>Lag (time)</th>
            <th>Events a second</th>
            <th>Batch p99</th>
            <th>Restarts</th>
            <th>Position</th>
          </tr>
        </thead>
        <tbody>
          {followers.map((follower) => (
            <tr key={follower.name} data-testid="follower-row">
              <td>{follower.name}</td>
              <td>
                <Tag minimal intent={STATE_INTENT[follower.state]} title={follower.lastError ?? undefined}>
                  {capitalised(follower.state)}
                </Tag>
              </td>
              <td>{follower.lagEvents === null ? '–' : follower.lagEvents.toLocaleString('en-GB')}</td>
              <td>{seconds(follower.lagSeconds)}</td>
              <td>{perSecond(follower.eventsPerSecond) ?? '–'}</td>
              <td>{milliseconds(follower.batchP99Ms)}</td>
              <td>{follower.restarts}</td>
              <td className="pf-muted">{follower.position ?? '–'}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Card>
  );
}
