import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { EmbeddedStartFailed } from './errors';

/** Who may log in to the embedded server, and where (docs/operations/embedded-database.md "Who can reach it"). */
export const SUPERUSER = 'postgres';
/** Written once by initdb and never changed: the account's password is this data directory's own. */
const LEGACY_PASSWORD = 'postgres';
export const SOCKET_PORT = 5432;
/** sun_path is 108 bytes on Linux, 104 on macOS; PostgreSQL needs the terminating NUL too. */
const MAX_SOCKET_PATH = os.platform() === 'darwin' ? 103 : 107;

/** Where the password of a data directory's embedded server is kept (readable by its owner only). */
export function passwordFile(dataDir: string): string {
  return path.resolve(dataDir, 'postgres.password');
}

/**
 * The address of a data directory's embedded server as the product reaches it (its socket, with its password),
 * for tools run on the same machine by the same user: a running server is needed, this only reads the file.
 */
export function embeddedDatabaseUrl(dataDir: string, port = SOCKET_PORT): string {
  const databaseDir = path.resolve(dataDir, 'postgres');
  return listening(databaseDir, port).url(readFileSync(passwordFile(dataDir), 'utf8').trim());
}

/**
 * The URL of the embedded server a running product holds open under `dataDir` (its postmaster.pid names the port,
 * its password file the password), or null when none runs there.
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = path.resolve(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return embeddedDatabaseUrl(dataDir, Number(port));
  } catch {
    return null;
  }
}

export async function writePrivate(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/** Only what the product needs: the superuser with its password, over the socket (or 127.0.0.1). */
export function hbaConfig(tcp: boolean): string {
  return [
    '# Written by the product at every start of its embedded PostgreSQL (docs/operations/embedded-database.md).',
    '# Only the Unix socket in this directory, and only with the password in ../postgres.password.',
    'local all all scram-sha-256',
    ...(tcp ? ['host all all 127.0.0.1/32 scram-sha-256'] : []),
    '',
  ].join('\n');
}

export interface Listening {
  readonly url: (password: string) => string;
  readonly flags: string[];
  readonly tcp: boolean;
}

export function listening(databaseDir: string, port: number): Listening {
  if (path.join(databaseDir, `.s.PGSQL.${port}`).length <= MAX_SOCKET_PATH) {
    return {
      url: (password) => `postgres://${SUPERUSER}:${password}@localhost:${port}/postgres?host=${encodeURIComponent(databaseDir)}`,
      flags: ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${databaseDir}`],
      tcp: false,
    };
  }
  return {
    url: (password) => `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`,
    flags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    tcp: true,
  };
}

/** Logs in once; false when the password is refused (SQLSTATE 28P01), any other failure is thrown. */
async function canLogIn(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '28P01') return false;
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A data directory from before the random password: its superuser's password is the fixed word. It is changed
 * to a new random one, which is written to a pending file first, so that a crash between the change and the
 * file's rename leaves the new password findable at the next start.
 */
export async function migrateLegacyPassword(
  dataDir: string,
  url: (password: string) => string,
  log: (line: string) => void,
): Promise<string> {
  const file = passwordFile(dataDir);
  const pending = `${file}.new`;
  const candidate = existsSync(pending) ? (await readFile(pending, 'utf8')).trim() : null;
  if (candidate && (await canLogIn(url(candidate)))) {
    await rename(pending, file);
    return candidate;
  }
  if (!(await canLogIn(url(LEGACY_PASSWORD)))) {
    throw new EmbeddedStartFailed(
      `The embedded PostgreSQL in ${path.resolve(dataDir, 'postgres')} refused its password, and ${file} is missing; restore that file from a backup`,
    );
  }
  const password = randomBytes(24).toString('hex');
  await writePrivate(pending, password);
  const client = new pg.Client({ connectionString: url(LEGACY_PASSWORD) });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // The password is hexadecimal: nothing in it needs quoting beyond the literal's own quotes.
    await client.query(`alter role ${SUPERUSER} password ${client.escapeLiteral(password)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
  await rename(pending, file);
  log(`the embedded PostgreSQL's superuser password was changed from the old fixed one to a random one, kept in ${file}`);
  return password;
}
