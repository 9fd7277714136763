import { chmod, mkdtemp, readFile, rm, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirectoryInUse, passwordFile, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded';

/** The embedded server's own tests: a data directory of their own (docs/operations/embedded-database.md). */
let dir: string;
let server: EmbeddedDatabase | null = null;

beforeAll(async () => {
  // Under /tmp, whose parents the embedded server's "postgres" user can traverse.
  dir = await mkdtemp(path.join(os.tmpdir(), 'pf-embedded-'));
  await chmod(dir, 0o755);
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** The same server and socket, with another password. */
const withPassword = (url: string, password: string) => {
  const changed = new URL(url);
  changed.password = password;
  return changed.toString();
};

describe('the embedded PostgreSQL', () => {
  it('draws a random password kept in an owner-only file, listens on no TCP address, and refuses postgres/postgres', async () => {
    server = await startEmbeddedPostgres(dir);
    const password = (await readFile(passwordFile(dir), 'utf8')).trim();
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    const file = await stat(passwordFile(dir));
    expect(file.mode & 0o777).toBe(0o600);
    expect(file.uid).toBe(process.getuid!());
    expect(new URL(server.url).password).toBe(password);

    const { rows } = await query(
      server.url,
      "select current_setting('listen_addresses') as listen, current_setting('unix_socket_directories') as socket",
    );
    expect(rows[0]).toEqual({ listen: '', socket: path.join(dir, 'postgres') });
    // The socket's directory is the server's data directory: its owner's alone.
    expect((await stat(path.join(dir, 'postgres'))).mode & 0o777).toBe(0o700);

    await expect(query(withPassword(server.url, 'postgres'), 'select 1')).rejects.toMatchObject({ code: '28P01' });
  });

  it('refuses to start a second server on a data directory a running copy of the product serves, in one sentence', async () => {
    await expect(startEmbeddedPostgres(dir)).rejects.toThrow(DataDirectoryInUse);
    await expect(startEmbeddedPostgres(dir)).rejects.toThrow(
      /^The data directory .* is in use by a running copy of the product \(process \d+\); stop that one first/,
    );
    // The running server was left alone.
    expect((await query(server!.url, 'select 1 as one')).rows[0]).toEqual({ one: 1 });
  });

  it('migrates a data directory from before the random password: the fixed word is changed, the data kept', async () => {
    // A data directory as the earlier versions left it: the superuser's password is "postgres", no password file.
    await query(server!.url, "create table kept (note text); insert into kept values ('before the change')");
    await query(server!.url, "alter role postgres password 'postgres'");
    await server!.stop();
    server = null;
    await unlink(passwordFile(dir));

    server = await startEmbeddedPostgres(dir);
    const password = (await readFile(passwordFile(dir), 'utf8')).trim();
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect((await stat(passwordFile(dir))).mode & 0o777).toBe(0o600);
    expect((await query(server.url, 'select note from kept')).rows).toEqual([{ note: 'before the change' }]);
    await expect(query(withPassword(server.url, 'postgres'), 'select 1')).rejects.toMatchObject({ code: '28P01' });
  });

  it('reports a postmaster that dies by itself, and starts again on the same data directory and address', async () => {
    const { url, port, pid } = server!;
    process.kill(pid, 'SIGKILL');
    expect(await server!.exited).toBe('killed by SIGKILL');
    // Its backends may still be leaving: a start that finds them is refused with a sentence, and a later one succeeds.
    for (let attempt = 0; ; attempt++) {
      try {
        server = await startEmbeddedPostgres(dir, () => undefined, port);
        break;
      } catch (error) {
        expect((error as Error).message).toMatch(/^The embedded PostgreSQL in .* stopped while starting: /);
        if (attempt > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    expect(server.url).toBe(url);
    expect((await query(url, 'select note from kept')).rows).toEqual([{ note: 'before the change' }]);
  });
});
