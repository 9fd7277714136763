import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Migration } from '@pf/infra';

/**
 * Uploaded bytes live beside the events in PostgreSQL, owned by the write side (the event records their
 * SHA-256, not the bytes: events stay small and the Kafka relay does not carry files). Also the secret that
 * signs document links, created once and shared by every copy of the command-service through the database.
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
];

export async function storeFile(pool: pg.Pool, documentId: string, content: Buffer, sha256: string): Promise<void> {
  await pool.query('insert into document_files (document_id, content, sha256) values ($1, $2, $3) on conflict do nothing', [
    documentId,
    content,
    sha256,
  ]);
}

export async function removeFile(pool: pg.Pool, documentId: string): Promise<void> {
  await pool.query('delete from document_files where document_id = $1', [documentId]);
}

export async function readFile(pool: pg.Pool, documentId: string): Promise<Buffer | null> {
  const result = await pool.query<{ content: Buffer }>('select content from document_files where document_id = $1', [documentId]);
  return result.rows[0]?.content ?? null;
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
