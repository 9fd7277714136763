import type pg from 'pg';
import type { RecordedEvent } from '@pf/infra';
import type { BulkTarget } from '../../projection-kit/bulk-fill';
import { writeRows } from '../../projection-kit/fold-batch';
import type { ReadModel } from '../../projection-kit/read-model';

/**
 * The version of every agent and conversation (its stream's last event, from 0), so a read of one can carry
 * it as an ETag and the client can send it back in If-Match. A read model of its own: the other views need
 * not know about versions, and it stands at the same checkpoint as they do.
 */
const VERSIONED = /^(agent|conversation)-\d+$/;
const VERSIONS: BulkTarget = { table: 'rm_stream_versions', columns: ['stream', 'version'], key: [0], whenStored: 'statement' };

async function project(client: pg.ClientBase, batch: readonly RecordedEvent[]): Promise<void> {
  const latest = new Map<string, number>();
  for (const event of batch) {
    if (VERSIONED.test(event.stream)) latest.set(event.stream, Math.max(event.streamVersion, latest.get(event.stream) ?? -1));
  }
  if (latest.size === 0) return;
  // greatest(): a rebuild or a redelivered batch never moves a version back.
  await writeRows(
    client,
    [...latest],
    ['text', 'int'],
    (v) => `insert into rm_stream_versions (stream, version) select v1, v2 from ${v}
            on conflict (stream) do update set version = greatest(rm_stream_versions.version, excluded.version)`,
    VERSIONS,
  );
}

export const versionsReadModel: ReadModel = {
  name: 'versions',
  tables: ['rm_stream_versions'],
  migrations: [
    {
      name: 'query-service/010-stream-versions',
      sql: 'create table rm_stream_versions (stream text primary key, version int not null)',
    },
  ],
  project,
};

/** The version of one aggregate's stream as the read models know it; null when they have none. */
export async function streamVersion(pool: pg.Pool, stream: string): Promise<number | null> {
  const result = await pool.query<{ version: number }>('select version from rm_stream_versions where stream = $1', [stream]);
  return result.rows[0]?.version ?? null;
}
