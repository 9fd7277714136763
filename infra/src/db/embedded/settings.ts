import { existsSync } from 'node:fs';
import { appendFile, chown, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Settings the product keeps in the data directory itself (`backup.conf`, included from postgresql.conf), so that
 * every start of the server, the product's or a tool's (`npm run audit`, `npm run rebuild`), archives its WAL
 * alike (docs/operations/backups.md).
 */
const SETTINGS_FILE = 'backup.conf';
const INCLUDE = `include_if_exists = '${SETTINGS_FILE}'`;

export async function writeServerSettings(
  databaseDir: string,
  lines: readonly string[],
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  const file = path.join(databaseDir, SETTINGS_FILE);
  const temporary = `${file}.tmp`;
  await writeFile(
    temporary,
    ['# Written by the product (docs/operations/backups.md); changed at its next start.', ...lines, ''].join('\n'),
  );
  if (owner) await chown(temporary, owner.uid, owner.gid);
  await rename(temporary, file);
  const main = path.join(databaseDir, 'postgresql.conf');
  if (existsSync(main) && !(await readFile(main, 'utf8')).includes(INCLUDE)) await appendFile(main, `\n${INCLUDE}\n`);
}
