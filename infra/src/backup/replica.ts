import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { chown, mkdir, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, type _Object } from '@aws-sdk/client-s3';
import type { Config } from '../config';
import { runAs } from '../db/embedded/server';
import { RECORD_FILE } from './catalogue';
import type { BackupLayout } from './layout';

/**
 * A copy of BACKUP_DIR in an S3-compatible object store (docs/operations/backups.md "Object store"), as Litestream
 * keeps an embedded database's copy off the machine: every finished base backup and every archived WAL segment,
 * under the same names, so a restore on a machine whose disks are gone first fetches them back and goes on as from
 * the folder. A base backup's `backup.json` is copied after its other files, so a copy with it is a whole one; files
 * already copied (same name and size) are not sent again. Nothing is deleted from the store because it is missing
 * from the folder (a lost folder must not empty its copy): the store keeps its own retention, by the same rule.
 */
export interface ObjectStoreSettings {
  readonly url: string;
  readonly bucket: string;
  /** The keys' common start, with its trailing slash ('' for the bucket's root). */
  readonly prefix: string;
  readonly endpoint?: string;
  readonly region: string;
  readonly intervalMs: number;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

type ObjectStoreConfig = Pick<
  Config,
  | 'BACKUP_S3_URL'
  | 'BACKUP_S3_ENDPOINT'
  | 'BACKUP_S3_REGION'
  | 'BACKUP_S3_INTERVAL_SECONDS'
  | 'BACKUP_S3_ACCESS_KEY_ID'
  | 'BACKUP_S3_SECRET_ACCESS_KEY'
>;

export function objectStoreSettings(config: ObjectStoreConfig): ObjectStoreSettings | null {
  if (!config.BACKUP_S3_URL) return null;
  const [bucket = '', ...rest] = config.BACKUP_S3_URL.slice('s3://'.length).split('/');
  const prefix = rest.filter(Boolean).join('/');
  return {
    url: config.BACKUP_S3_URL,
    bucket,
    prefix: prefix ? `${prefix}/` : '',
    ...(config.BACKUP_S3_ENDPOINT ? { endpoint: config.BACKUP_S3_ENDPOINT } : {}),
    region: config.BACKUP_S3_REGION,
    intervalMs: config.BACKUP_S3_INTERVAL_SECONDS * 1000,
    ...(config.BACKUP_S3_ACCESS_KEY_ID && config.BACKUP_S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: config.BACKUP_S3_ACCESS_KEY_ID, secretAccessKey: config.BACKUP_S3_SECRET_ACCESS_KEY } }
      : {}),
  };
}

/** A file of BACKUP_DIR by its path inside it ("wal/…", "base/<id>/…"), which is also its key after the prefix. */
interface LocalFile {
  readonly name: string;
  readonly file: string;
  readonly bytes: number;
}

const COPIES_AT_ONCE = 4;
/** A base backup's folders, kept beside its files in the object store (which has no folders). */
const DIRECTORIES_FILE = 'directories.json';
const isWalFile = (name: string) => /^[0-9A-F]{24}(\.gz|\.partial\.gz)?$|^[0-9A-F]{8}\.history$/.test(name);

export class BackupReplica {
  readonly #client: S3Client;

  constructor(
    readonly settings: ObjectStoreSettings,
    client?: S3Client,
  ) {
    // The SDK warns on Node 20 that its releases after January 2027 will need Node 22; the lockfile pins one that
    // supports Node 20 (the product's engines), so the warning would only alarm an operator reading stderr.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.#client =
      client ??
      new S3Client({
        region: settings.region,
        ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
        ...(settings.credentials ? { credentials: { ...settings.credentials } } : {}),
        // Checksums only where S3 requires them: many S3-compatible stores reject the newer default ones.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
  }

  /** Copies to the store what it lacks: the archived WAL, then each finished base backup with its record last. */
  async push(layout: BackupLayout): Promise<{ files: number; bytes: number }> {
    const remote = await this.#list();
    const missing = (files: readonly LocalFile[]) => files.filter((f) => remote.get(f.name) !== f.bytes);
    const wal = missing(await walFiles(layout));
    await eachLimited(wal, (f) => this.#put(f));
    const sent = [...wal];
    for (const id of await finishedBaseBackups(layout)) {
      const { files, directories } = await treeUnder(layout.dir, path.join('base', id));
      // An object store keeps no folders, and PostgreSQL needs its empty ones (pg_notify, pg_tblspc…): their list goes with the copy.
      const listName = `base/${id}/${DIRECTORIES_FILE}`;
      if (!remote.has(listName)) await this.#putText(listName, JSON.stringify(directories));
      const record = files.filter((f) => path.basename(f.name) === RECORD_FILE);
      const rest = missing(files.filter((f) => !record.includes(f)));
      await eachLimited(rest, (f) => this.#put(f));
      const recordMissing = missing(record);
      await eachLimited(recordMissing, (f) => this.#put(f));
      sent.push(...rest, ...recordMissing);
    }
    return { files: sent.length, bytes: sent.reduce((total, f) => total + f.bytes, 0) };
  }

  /**
   * Fetches into the folder what the store has and the folder lacks (whole base backups only, the record last),
   * for a restore on a machine that lost its backups. Files already there are kept as they are.
   */
  async pull(layout: BackupLayout): Promise<{ files: number; bytes: number }> {
    const remote = await this.#list();
    const finished = new Set(
      [...remote.keys()].filter((name) => /^base\/[^/]+\/backup\.json$/.test(name)).map((name) => name.split('/')[1]!),
    );
    const wanted = [...remote.entries()].filter(([name]) => {
      const [top, id] = name.split('/');
      return (top === 'wal' && isWalFile(name.slice(4))) || (top === 'base' && id !== undefined && finished.has(id));
    });
    const missing = wanted.filter(([name, bytes]) => {
      const file = path.join(layout.dir, name);
      return bytesOf(file) !== bytes;
    });
    const isRecord = ([name]: [string, number]) => path.basename(name) === RECORD_FILE;
    await eachLimited(
      missing.filter((entry) => !isRecord(entry)),
      ([name]) => this.#get(name, path.join(layout.dir, name)),
    );
    for (const [name] of wanted.filter(([name]) => path.basename(name) === DIRECTORIES_FILE)) {
      const root = path.join(layout.dir, path.dirname(name));
      for (const directory of JSON.parse(await this.#text(name)) as string[]) {
        const folder = path.resolve(root, directory);
        if (!folder.startsWith(`${root}${path.sep}`)) throw new Error(`${name} names a folder outside its backup: ${directory}`);
        await mkdir(folder, { recursive: true, mode: 0o700 });
      }
    }
    await eachLimited(missing.filter(isRecord), ([name]) => this.#get(name, path.join(layout.dir, name)));
    return { files: missing.length, bytes: missing.reduce((total, [, bytes]) => total + bytes, 0) };
  }

  /**
   * The store's own retention, by the folder's rule (docs/operations/backups.md "Retention"): base backups finished
   * more than `retentionMs` ago go, except the newest, and the WAL segments older than the oldest kept one needs.
   */
  async prune(retentionMs: number, now: Date): Promise<{ backups: string[]; walSegments: number }> {
    const remote = await this.#list();
    const records: { id: string; finishedAt: number; startWal: string }[] = [];
    for (const name of remote.keys()) {
      if (!/^base\/[^/]+\/backup\.json$/.test(name)) continue;
      const record = JSON.parse(await this.#text(name)) as { id: string; finishedAt: string; startWal: string };
      records.push({ id: record.id, finishedAt: Date.parse(record.finishedAt), startWal: record.startWal });
    }
    records.sort((a, b) => a.finishedAt - b.finishedAt);
    const newest = records.at(-1);
    const expired = records.filter((r) => r !== newest && now.getTime() - r.finishedAt > retentionMs);
    const oldestKept = records.find((r) => !expired.includes(r));
    const floor = oldestKept?.startWal.slice(8, 24);
    const doomed = [...remote.keys()].filter((name) => {
      const [top, id] = name.split('/');
      if (top === 'base') return expired.some((r) => r.id === id);
      const file = name.slice(4);
      return top === 'wal' && floor !== undefined && /^[0-9A-F]{24}/.test(file) && !file.includes('.history') && file.slice(8, 24) < floor;
    });
    for (let i = 0; i < doomed.length; i += 1000) {
      await this.#client.send(
        new DeleteObjectsCommand({
          Bucket: this.settings.bucket,
          Delete: { Objects: doomed.slice(i, i + 1000).map((name) => ({ Key: this.settings.prefix + name })), Quiet: true },
        }),
      );
    }
    return { backups: expired.map((r) => r.id), walSegments: doomed.filter((name) => name.startsWith('wal/')).length };
  }

  close(): void {
    this.#client.destroy();
  }

  /** Every object under the prefix, by its name inside BACKUP_DIR, with its size. */
  async #list(): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    let token: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: this.settings.prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? ([] as _Object[])) {
        if (object.Key) found.set(object.Key.slice(this.settings.prefix.length), object.Size ?? 0);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async #put(file: LocalFile): Promise<void> {
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.settings.prefix + file.name,
        Body: createReadStream(file.file),
        ContentLength: file.bytes,
      }),
    );
  }

  async #putText(name: string, text: string): Promise<void> {
    await this.#client.send(new PutObjectCommand({ Bucket: this.settings.bucket, Key: this.settings.prefix + name, Body: text }));
  }

  async #get(name: string, file: string): Promise<void> {
    const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.settings.prefix + name }));
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.fetching`;
    await pipeline(answer.Body as Readable, createWriteStream(partial, { mode: 0o600 }));
    // The WAL folder is the server's (as root, the "postgres" user's): the segments must be its to read.
    const owner = name.startsWith('wal/') ? runAs() : null;
    if (owner) await chown(partial, owner.uid, owner.gid);
    await rename(partial, file);
  }

  async #text(name: string): Promise<string> {
    const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.settings.prefix + name }));
    return (await answer.Body?.transformToString('utf8')) ?? '';
  }
}

function bytesOf(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

async function walFiles(layout: BackupLayout): Promise<LocalFile[]> {
  if (!existsSync(layout.walDir)) return [];
  const files: LocalFile[] = [];
  for (const name of await readdir(layout.walDir)) {
    if (!isWalFile(name)) continue;
    const file = path.join(layout.walDir, name);
    files.push({ name: `wal/${name}`, file, bytes: (await stat(file)).size });
  }
  return files;
}

async function finishedBaseBackups(layout: BackupLayout): Promise<string[]> {
  if (!existsSync(layout.baseDir)) return [];
  const ids = await readdir(layout.baseDir);
  return ids.filter((id) => existsSync(path.join(layout.baseDir, id, RECORD_FILE))).sort();
}

/** The files under `relative` (their names inside BACKUP_DIR) and every folder, relative to it. */
async function treeUnder(root: string, relative: string): Promise<{ files: LocalFile[]; directories: string[] }> {
  const files: LocalFile[] = [];
  const directories: string[] = [];
  const walk = async (inside: string) => {
    for (const entry of await readdir(path.join(root, relative, inside), { withFileTypes: true })) {
      const name = path.join(inside, entry.name);
      const file = path.join(root, relative, name);
      if (entry.isDirectory()) {
        directories.push(name.split(path.sep).join('/'));
        await walk(name);
      } else if (entry.isFile()) {
        files.push({ name: path.join(relative, name).split(path.sep).join('/'), file, bytes: (await stat(file)).size });
      }
    }
  };
  await walk('');
  return { files, directories };
}

async function eachLimited<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(COPIES_AT_ONCE, items.length) }, worker));
}

/** How the copy to the object store is going, for /readyz (docs/operations/backups.md "Status"). */
export interface ReplicaState {
  readonly url: string;
  /** When the last copy finished with everything sent; null before the first. */
  readonly lastCopiedAt: string | null;
  /** The last copy's failure, cleared by the next that succeeds. */
  readonly lastError: string | null;
}

interface ReplicaLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Copies BACKUP_DIR to the object store every BACKUP_S3_INTERVAL_SECONDS (and at once when asked, after a base
 * backup), then applies the store's retention; a failure is kept for the status and tried again at the next turn.
 */
export function scheduleReplica(
  layout: BackupLayout,
  replica: BackupReplica,
  retentionMs: number,
  log: ReplicaLog,
): { state(): ReplicaState; copyNow(): Promise<void>; close(): Promise<void> } {
  let state: ReplicaState = { url: replica.settings.url, lastCopiedAt: null, lastError: null };
  let running: Promise<void> | null = null;
  let closed = false;
  const copy = async () => {
    try {
      const sent = await replica.push(layout);
      if (sent.files > 0) log.info(sent, 'backups copied to the object store');
      const pruned = await replica.prune(retentionMs, new Date());
      if (pruned.backups.length > 0 || pruned.walSegments > 0) log.info(pruned, 'object store copies past their retention deleted');
      state = { ...state, lastCopiedAt: new Date().toISOString(), lastError: null };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Logged when the failure changes, not at every turn.
      if (!closed && message !== state.lastError)
        log.error({ err: error }, 'copying the backups to the object store failed; it is tried again at every turn');
      state = { ...state, lastError: message };
    }
  };
  const turn = (): Promise<void> => {
    if (closed) return Promise.resolve();
    running ??= copy().finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void turn(), replica.settings.intervalMs);
  timer.unref();
  void turn();
  return {
    state: () => state,
    copyNow: async () => {
      await running;
      await turn();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
      replica.close();
    },
  };
}
