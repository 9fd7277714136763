import { createHash } from 'node:crypto';
import type pg from 'pg';
import { MAX_DOCUMENT_BYTES, type DocumentContentType } from '@pf/events';
import { DomainError, inTransaction, Invalid } from '@pf/infra';
import { FILE_CHUNK_BYTES, removeFile } from './file-store';
import { sniffDocument } from './sniff';

/**
 * The document store's write path (docs/behaviour/documents.md, "Upload"): the bytes stream into
 * `document_file_chunks` as they arrive, hashed (SHA-256, recorded in the event) and their type read from their
 * first bytes, so no file is ever held whole in memory; the file counts once `commitFile` has written its row
 * within the firm's upload quota. Anything that fails on the way removes what was written: nothing half-written
 * stays. `storeDocumentFile` does both for a caller that has the bytes (a document the system makes).
 */

export class TooLarge extends DomainError {
  constructor() {
    super(`file: The file is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB, the most a document may be`, 413);
  }
}

class QuotaExceeded extends DomainError {
  constructor(usedBytes: number, fileBytes: number, quotaBytes: number) {
    super(
      `file: This file (${megabytes(fileBytes)}) would take your firm's documents to ${megabytes(usedBytes + fileBytes)}, ` +
        `over its upload quota of ${megabytes(quotaBytes)} (UPLOAD_QUOTA_MB_PER_FIRM); nothing was stored`,
      413,
    );
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;

export interface WrittenFile {
  readonly documentId: string;
  readonly sha256: string;
  readonly size: number;
  readonly contentType: DocumentContentType;
}

/**
 * Streams `content` into the chunks of `documentId`: hashed, its type sniffed from its first bytes (a file that is
 * not a PDF, JPEG or PNG is refused before anything is written), at most MAX_DOCUMENT_BYTES. `tooLarge` tells
 * whether the source stopped at its own limit (a multipart part truncated at the size limit).
 */
export async function writeFileChunks(
  pool: pg.Pool,
  documentId: string,
  content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  tooLarge: () => boolean = () => false,
): Promise<WrittenFile> {
  const hash = createHash('sha256');
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let size = 0;
  let seq = 0;
  let contentType: DocumentContentType | null = null;
  /** Writes the first FILE_CHUNK_BYTES held (or all of them, at the end) as the next chunk. */
  const flush = async () => {
    const held = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    const bytes = held.subarray(0, FILE_CHUNK_BYTES);
    const rest = held.subarray(bytes.length);
    pending = rest.length > 0 ? [rest] : [];
    pendingBytes = rest.length;
    if (contentType === null) {
      const sniffed = await sniffDocument(bytes);
      if (!sniffed.ok) {
        throw new Invalid(
          `file: only PDF, JPEG and PNG documents are accepted, and this file's content is ${sniffed.found ?? 'none of them'}`,
        );
      }
      contentType = sniffed.contentType;
    }
    await pool.query('insert into document_file_chunks (document_id, seq, bytes) values ($1, $2, $3)', [documentId, seq, bytes]);
    seq += 1;
  };
  try {
    for await (const piece of content) {
      const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      size += chunk.length;
      if (size > MAX_DOCUMENT_BYTES) throw new TooLarge();
      hash.update(chunk);
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Each chunk is written once it holds FILE_CHUNK_BYTES (or at the end): the first, far more than a type needs
      // to be told by, is sniffed before anything is written.
      while (pendingBytes >= FILE_CHUNK_BYTES) await flush();
    }
    if (tooLarge()) throw new TooLarge();
    if (size === 0) throw new Invalid('file: choose a PDF, JPEG or PNG file to upload');
    while (pendingBytes > 0) await flush();
  } catch (error) {
    await removeFile(pool, documentId).catch(() => undefined);
    throw error;
  }
  return { documentId, sha256: hash.digest('hex'), size, contentType: contentType! };
}

/**
 * Makes a written file count: its row (size, hash, firm) is written if the firm's files stay within `quotaBytes`,
 * decided one upload at a time per firm (an advisory lock), so two uploads at once cannot both slip under the
 * quota. Refused, the chunks are removed.
 */
export async function commitFile(pool: pg.Pool, file: WrittenFile, firmId: string, quotaBytes: number): Promise<void> {
  try {
    await inTransaction(pool, async (client) => {
      await client.query("select pg_advisory_xact_lock(hashtext('document-quota'), hashtext($1))", [firmId]);
      const used = await client.query<{ used: string }>('select coalesce(sum(size), 0) as used from document_files where firm_id = $1', [
        firmId,
      ]);
      const usedBytes = Number(used.rows[0]!.used);
      if (usedBytes + file.size > quotaBytes) throw new QuotaExceeded(usedBytes, file.size, quotaBytes);
      await client.query('insert into document_files (document_id, sha256, size, firm_id) values ($1, $2, $3, $4)', [
        file.documentId,
        file.sha256,
        file.size,
        firmId,
      ]);
    });
  } catch (error) {
    await removeFile(pool, file.documentId).catch(() => undefined);
    throw error;
  }
}

/** Writes a whole file (a document the system makes) and makes it count: both steps above. */
export async function storeDocumentFile(
  pool: pg.Pool,
  documentId: string,
  content: AsyncIterable<Uint8Array> | Uint8Array,
  owner: { firmId: string; quotaBytes: number },
): Promise<WrittenFile> {
  const written = await writeFileChunks(pool, documentId, content instanceof Uint8Array ? [content] : content);
  await commitFile(pool, written, owner.firmId, owner.quotaBytes);
  return written;
}
