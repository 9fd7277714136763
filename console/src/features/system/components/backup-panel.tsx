import { Callout, Card, H2, Intent } from '@blueprintjs/core';
import { formatDateTime } from '../../../lib/display';
import type { Readiness } from '../api/system';
import { bytes } from './figures';

/** What /readyz says of the backups (docs/operations/backups.md "Status"): each time and size, and every warning as one. */
export function BackupPanel({ backup }: { backup: Readiness['backup'] }) {
  return (
    <Card className="pf-card" data-testid="system-backup">
      <H2 className="pf-h4">Backups</H2>
      {!backup ? (
        <p className="pf-muted">
          This installation keeps no backups of its own (it runs on DATABASE_URL, or BACKUP is off): its database&apos;s operator backs it
          up.
        </p>
      ) : (
        <>
          {backup.warnings.map((warning) => (
            <Callout key={warning} intent={Intent.WARNING} icon="warning-sign" className="pf-gap-below" data-testid="backup-warning">
              {warning}
            </Callout>
          ))}
          <ul className="pf-plain-list">
            <li data-testid="backup-base">
              Last base backup:{' '}
              {backup.lastBaseBackupAt
                ? `${formatDateTime(backup.lastBaseBackupAt)}${backup.lastBaseBackupBytes !== null ? ` (${bytes(backup.lastBaseBackupBytes)})` : ''}`
                : 'none yet'}
            </li>
            <li data-testid="backup-wal">
              Last archived WAL:{' '}
              {backup.lastArchivedWal
                ? `${backup.lastArchivedWal}${backup.lastArchivedAt ? ` at ${formatDateTime(backup.lastArchivedAt)}` : ''}`
                : 'none yet'}
            </li>
            <li data-testid="backup-object-store">
              Copy in an object store:{' '}
              {!backup.objectStore
                ? 'none (BACKUP_S3_URL is not set)'
                : `${backup.objectStore.url}, ${
                    backup.objectStore.lastCopiedAt
                      ? `last brought up to date ${formatDateTime(backup.objectStore.lastCopiedAt)}`
                      : 'not copied yet'
                  }${backup.objectStore.lastError ? `; failing: ${backup.objectStore.lastError}` : ''}`}
            </li>
            <li className="pf-muted">Kept in {backup.dir}</li>
          </ul>
        </>
      )}
    </Card>
  );
}
