import pg from 'pg';

/**
 * Ends the current WAL segment (pg_switch_wal) and waits until the archive holds it: every transaction committed
 * before the call is then in the archive. For tests, drills and the bench, which cannot wait for archive_timeout.
 */
export async function archiveNow(databaseUrl: string, timeoutMs = 60_000): Promise<{ wal: string; at: Date }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const at = new Date();
    const { rows } = await client.query<{ wal: string }>('select pg_walfile_name(pg_switch_wal()) as wal');
    const wal = rows[0]!.wal;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows: archived } = await client.query<{ last: string | null }>('select last_archived_wal as last from pg_stat_archiver');
      // Same timeline: names compare in WAL order.
      if (archived[0]?.last && archived[0].last >= wal) return { wal, at };
      if (Date.now() > deadline) throw new Error(`${wal} was not archived within ${timeoutMs} ms (last archived: ${archived[0]?.last})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await client.end();
  }
}
