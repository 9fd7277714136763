/**
 * The embedded server's WAL archiving (docs/operations/backups.md "How it works"). PostgreSQL runs these
 * commands with /bin/sh for each finished WAL segment (and each timeline history file):
 *
 * - archive: gzip the segment to `<name>.gz.tmp`, fsync it, rename it to `<name>.gz`, fsync the folder. A segment
 *   already archived is never overwritten: the command succeeds only if the stored copy has the same bytes
 *   (PostgreSQL asks again after a crash between the copy and its own note of it), and fails otherwise, so
 *   archiving stops (and the status says so) rather than replace a segment of another history.
 * - restore: the same, backwards, failing when the archive has no such file (the end of the archive).
 *
 * The segments' unused tails are zeros (`wal_recycle = off`: a new segment is a new zero-filled file, not an old
 * one's bytes), so a segment switched early by `archive_timeout` gzips to little more than what was written.
 */

/** A word for /bin/sh: single-quoted, with its own single quotes spliced in. */
function shellWord(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** PostgreSQL replaces %p, %f and %% in these commands: a % in a path must be doubled. */
function literalPercent(value: string): string {
  return value.replaceAll('%', '%%');
}

export function archiveCommand(walDir: string): string {
  const dir = literalPercent(shellWord(walDir));
  return [
    `f=${dir}/%f.gz;`,
    `if [ -f "$f" ]; then gzip -dc "$f" | cmp -s - %p;`,
    `else gzip -c %p > "$f.tmp" && sync "$f.tmp" && mv "$f.tmp" "$f" && sync ${dir}; fi`,
  ].join(' ');
}

export function restoreCommand(walDir: string): string {
  const dir = literalPercent(shellWord(walDir));
  return `f=${dir}/%f.gz; [ -f "$f" ] && gzip -dc "$f" > %p`;
}

/** A setting's value as postgresql.conf reads it: single-quoted, quotes doubled, backslashes escaped. */
function confString(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

export interface ArchiveOptions {
  readonly walDir: string;
  readonly archiveTimeoutSeconds: number;
}

/** The lines of the server's backup settings: archiving on into `walDir`, or off. */
export function archiveSettings(archive: ArchiveOptions | null): string[] {
  if (!archive) return ['archive_mode = off'];
  return [
    'archive_mode = on',
    `archive_command = ${confString(archiveCommand(archive.walDir))}`,
    `archive_timeout = ${archive.archiveTimeoutSeconds}`,
    'wal_recycle = off',
    'wal_init_zero = on',
  ];
}

/** A time as recovery_target_time takes it: `2026-11-28 09:30:00.000+00` (it refuses ISO's T and Z). */
function postgresTime(at: Date): string {
  return at.toISOString().replace('T', ' ').replace('Z', '+00');
}

/**
 * Point-in-time recovery (with recovery.signal in the data directory): replay the archive up to `target` (or to
 * its end), then promote, a new timeline whose WAL is archived beside the old.
 */
export function recoverySettings(walDir: string, target: Date | 'latest'): string[] {
  return [
    `restore_command = ${confString(restoreCommand(walDir))}`,
    "recovery_target_timeline = 'latest'",
    ...(target === 'latest'
      ? []
      : [
          `recovery_target_time = ${confString(postgresTime(target))}`,
          'recovery_target_inclusive = on',
          "recovery_target_action = 'promote'",
        ]),
  ];
}
