import { Button, Callout, Card, H2, Intent, ProgressBar } from '@blueprintjs/core';
import { failureReason } from '../../../lib/api-client';
import { useRebuild, useStartRebuild } from '../api/system';

/** The live rebuild of the read models (docs/decisions/live-rebuild.md), started and followed from here. */
export function RebuildPanel() {
  const rebuild = useRebuild();
  const start = useStartRebuild();
  const status = rebuild.data;
  return (
    <Card className="pf-card" data-testid="system-rebuild">
      <H2 className="pf-h4">Read models</H2>
      <p className="pf-muted">
        A live rebuild builds every read model again from the events while the product runs, then switches to them at once.
      </p>
      {status?.running ? (
        <>
          <ProgressBar intent={Intent.PRIMARY} value={status.total > 0 ? status.done / status.total : undefined} />
          <p data-testid="rebuild-line">{status.line ?? `Rebuild ${status.phase ?? 'starting'}`}</p>
        </>
      ) : status?.phase === 'done' ? (
        <p data-testid="rebuild-line">The last rebuild finished: {status.line}</p>
      ) : status?.error ? (
        <Callout intent={Intent.DANGER}>The last rebuild failed: {status.error}</Callout>
      ) : null}
      {start.error ? <Callout intent={Intent.DANGER}>{failureReason(start.error)}</Callout> : null}
      <Button intent={Intent.PRIMARY} icon="refresh" loading={start.isPending} disabled={status?.running} onClick={() => start.mutate()}>
        Rebuild the read models
      </Button>
    </Card>
  );
}
