import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Migration } from '@pf/infra';

/**
 * Uploaded bytes live beside the events in PostgreSQL, owned by the write side (the event records their
 * SHA-256, not the bytes: events stay small and the Kafka relay does not carry files). A file is kept in chunks
 * of at most FILE_CHUNK_BYTES (`document_file_chunks`), written as it arrives, and counts only once its row in
 * `document_files` (its size, hash and firm, for the firm's upload quota) is written after the last chunk
 * (file-write.ts). Also the secret that signs document links, created once and shared by every copy of the
 * command-service through the database.
 */
export const documentMigrations: Migration[] = [
  {
    name: 'command-service/002-document-files',
    sql: `
      create table document_files (
        document_id uuid primary key,
        content bytea not null,
        sha256 text not null,
        created_at timestamptz not null default now()
      );
      create table link_signing_secret (
        id int primary key check (id = 1),
        secret bytea not null
      );
    `,
  },
  {
    // Streamed uploads (docs/behaviour/documents.md): the bytes move to chunks, the file's row keeps its size and
    // firm. Files stored before this count towards no firm's quota (their uploader's firm was not recorded).
    name: 'command-service/004-document-file-chunks',
    sql: `
      create table document_file_chunks (
        document_id uuid not null,
        seq int not null,
        bytes bytea not null,
        created_at timestamptz not null default now(),
        primary key (document_id, seq)
      );
      insert into document_file_chunks (document_id, seq, bytes) select document_id, 0, content from document_files;
      alter table document_files add column size bigint, add column firm_id text;
      update document_files set size = octet_length(content);
      alter table document_files drop column content, alter column size set not null;
      create index document_files_firm on document_files (firm_id);
    `,
  },
];

/** How much of a file one row holds: small enough that a chunk in flight costs little memory. */
export const FILE_CHUNK_BYTES = 256 * 1024;

/** Removes a file's chunks and its row: a file whose event was never appended, or a duplicate of a retry. */
export async function removeFile(pool: pg.Pool, documentId: string): Promise<void> {
  await pool.query('delete from document_files where document_id = $1', [documentId]);
  await pool.query('delete from document_file_chunks where document_id = $1', [documentId]);
}

/**
 * Chunks no file row owns, older than any upload can take (a process that died mid-upload): removed when a
 * command-service starts. An upload in progress elsewhere is younger than this.
 */
export async function removeAbandonedChunks(pool: pg.Pool, olderThanMs: number): Promise<void> {
  await pool.query(
    `delete from document_file_chunks c
     where c.created_at < now() - make_interval(secs => $1)
       and not exists (select 1 from document_files f where f.document_id = c.document_id)`,
    [olderThanMs / 1000],
  );
}

/** A stored file: its size, and its bytes read a chunk at a time (never the whole file in memory). */
export async function readFile(pool: pg.Pool, documentId: string): Promise<{ size: number; chunks: AsyncIterable<Buffer> } | null> {
  const found = await pool.query<{ size: string; chunks: number }>(
    `select f.size, (select count(*)::int from document_file_chunks c where c.document_id = f.document_id) as chunks
     from document_files f where f.document_id = $1`,
    [documentId],
  );
  const row = found.rows[0];
  if (!row) return null;
  async function* chunks() {
    for (let seq = 0; seq < row!.chunks; seq++) {
      const chunk = await pool.query<{ bytes: Buffer }>('select bytes from document_file_chunks where document_id = $1 and seq = $2', [
        documentId,
        seq,
      ]);
      if (!chunk.rows[0]) throw new Error(`Document ${documentId} lost its chunk ${seq}`);
      yield chunk.rows[0].bytes;
    }
  }
  return { size: Number(row.size), chunks: chunks() };
}

let cached: Promise<Buffer> | null = null;

/** The signing secret: made on first use (a concurrent first use by another copy wins, and both read it back). */
export function signingSecret(pool: pg.Pool): Promise<Buffer> {
  cached ??= (async () => {
    await pool.query('insert into link_signing_secret (id, secret) values (1, $1) on conflict do nothing', [randomBytes(32)]);
    const result = await pool.query<{ secret: Buffer }>('select secret from link_signing_secret where id = 1');
    return result.rows[0]!.secret;
  })().catch((error) => {
    cached = null;
    throw error;
  });
  return cached;
}
