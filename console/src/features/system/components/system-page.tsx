import { Callout, Intent, Spinner } from '@blueprintjs/core';
import { FigureCards } from '../../../components/figure-cards';
import { PageHeader } from '../../../components/page-header';
import { Problem } from '../../../components/problem';
import { failureReason } from '../../../lib/api-client';
import { formatTime } from '../../../lib/display';
import { useReadiness, useSystem } from '../api/system';
import { BackupPanel } from './backup-panel';
import { FollowersTable } from './followers-table';
import { RebuildPanel } from './rebuild-panel';
import { milliseconds, perSecond } from './figures';

/**
 * The System screen, for the installation's administrators (ADMIN_USER_IDS): what /readyz knows, the rates and
 * latencies of the last minute from the metrics GET /metrics serves, every follower's lag, the backups and the live
 * rebuild (docs/operations/observability.md). Read again every two seconds.
 */
export function SystemPage() {
  const system = useSystem();
  const readiness = useReadiness();
  if (system.error) return <Problem level={1} icon="lock" title="System" description={failureReason(system.error)} />;
  if (!system.data) return <Spinner className="pf-page-spinner" />;
  const { http, commands, appends, realtime, database, followers, windowSeconds, at } = system.data;
  const window = windowSeconds === null ? 'measuring' : `the last ${Math.round(windowSeconds)} s`;
  return (
    <div className="pf-page">
      <PageHeader title="System" subtitle={`This process as of ${formatTime(at)}: rates and latencies over ${window}`} />
      {readiness.data ? (
        <Callout
          intent={readiness.data.status === 'ready' ? Intent.SUCCESS : Intent.DANGER}
          icon={readiness.data.status === 'ready' ? 'tick-circle' : 'error'}
          className="pf-gap-below"
          data-testid="system-readiness"
        >
          {readiness.data.status === 'ready'
            ? `Ready: the database answered in ${readiness.data.database.ok ? `${readiness.data.database.ms} ms` : '–'}, every follower runs`
            : (readiness.data.message ?? 'Not ready')}
        </Callout>
      ) : readiness.error ? (
        <Callout intent={Intent.DANGER}>{failureReason(readiness.error)}</Callout>
      ) : null}
      <FigureCards
        figures={[
          {
            key: 'requests',
            title: 'HTTP requests',
            icon: 'globe-network',
            value: perSecond(http.perSecond),
            hint: `p50 ${milliseconds(http.p50Ms)} · p95 ${milliseconds(http.p95Ms)} · p99 ${milliseconds(http.p99Ms)}`,
          },
          {
            key: 'commands',
            title: 'Commands decided',
            icon: 'take-action',
            value: perSecond(commands.decidedPerSecond),
            hint: `${commands.decided.toLocaleString('en-GB')} in all · ${commands.refused.toLocaleString('en-GB')} refused · conflicts ${perSecond(commands.conflictsPerSecond) ?? '–'}`,
          },
          {
            key: 'appends',
            title: 'Appends',
            icon: 'database',
            value: perSecond(appends.perSecond),
            hint: `p50 ${milliseconds(appends.p50Ms)} · p99 ${milliseconds(appends.p99Ms)} · pool ${database.used} of ${database.max} in use`,
          },
          {
            key: 'pushes',
            title: 'Pushes',
            icon: 'feed',
            value: perSecond(realtime.pushesPerSecond),
            hint: `${realtime.socketsOpen} sockets open · p50 ${milliseconds(realtime.p50Ms)} · p99 ${milliseconds(realtime.p99Ms)}`,
          },
        ]}
      />
      <FollowersTable followers={followers} />
      <BackupPanel backup={readiness.data?.backup} />
      <RebuildPanel />
    </div>
  );
}
