import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { commandContextForTests } from '../testing/service-context';
import { readFile } from './file-store';
import { storeDocumentFile } from './file-write';

/** A real PNG signature and header, then padding: what the file store's sniffing reads is the first bytes. */
const PNG_HEAD = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const pngOf = (size: number) => Buffer.concat([PNG_HEAD, Buffer.alloc(size - PNG_HEAD.length, 1)]);
const MB = 1024 * 1024;

const service = commandContextForTests();

const rows = async () =>
  (
    await service.context.pool.query<{ files: number; chunks: number }>(
      'select (select count(*)::int from document_files) as files, (select count(*)::int from document_file_chunks) as chunks',
    )
  ).rows[0]!;

/** The document store's write path as another caller uses it (a document the system makes), on real PostgreSQL. */
describe('storeDocumentFile', () => {
  it('stores the bytes in chunks with their SHA-256 and sniffed type, and reads them back a chunk at a time', async () => {
    const bytes = pngOf(700 * 1024);
    const documentId = randomUUID();
    const stored = await storeDocumentFile(service.context.pool, documentId, bytes, { firmId: 'firm-a', quotaBytes: 5 * MB });
    expect(stored).toEqual({
      documentId,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      contentType: 'image/png',
    });
    const file = await readFile(service.context.pool, documentId);
    const chunks: Buffer[] = [];
    for await (const chunk of file!.chunks) chunks.push(chunk);
    expect(chunks.map((chunk) => chunk.length)).toEqual([256 * 1024, 256 * 1024, 188 * 1024]);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(file!.size).toBe(bytes.length);
  });

  it('refuses what is not a PDF, JPEG or PNG, or would go over the quota, keeping nothing of it', async () => {
    const before = await rows();
    await expect(
      storeDocumentFile(service.context.pool, randomUUID(), Buffer.from('<html>not a document</html>'), {
        firmId: 'firm-b',
        quotaBytes: MB,
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await storeDocumentFile(service.context.pool, randomUUID(), pngOf(600 * 1024), { firmId: 'firm-b', quotaBytes: MB });
    await expect(
      storeDocumentFile(service.context.pool, randomUUID(), pngOf(600 * 1024), { firmId: 'firm-b', quotaBytes: MB }),
    ).rejects.toMatchObject({
      statusCode: 413,
      message:
        "file: This file (0.59 MB) would take your firm's documents to 1.2 MB, over its upload quota of 1.0 MB (UPLOAD_QUOTA_MB_PER_FIRM); nothing was stored",
    });
    const after = await rows();
    expect(after).toEqual({ files: before.files + 1, chunks: before.chunks + 3 });
  });

  it('holds the quota for uploads at the same moment: of three that each fit alone, two are stored', async () => {
    const results = await Promise.allSettled(
      [0, 1, 2].map(() => storeDocumentFile(service.context.pool, randomUUID(), pngOf(400 * 1024), { firmId: 'firm-c', quotaBytes: MB })),
    );
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const used = await service.context.pool.query<{ used: string }>(
      "select sum(size) as used from document_files where firm_id = 'firm-c'",
    );
    expect(Number(used.rows[0]!.used)).toBe(800 * 1024);
  });
});
