import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { AgentView, ApiError, DealView, DocumentUploadedAnswer } from '@pf/events';
import { ApiClient } from './testing/api-client';
import { PDF_BYTES, PNG_BYTES } from './testing/documents';
import { testSingleNode } from './testing/single-node';

/** A real PNG's bytes followed by padding to `size`: the type is read from the first bytes, the rest is carried. */
const pngOf = (size: number) => Buffer.concat([PNG_BYTES, Buffer.alloc(size - PNG_BYTES.length, 7)]);

/**
 * Uploads on the real single node (docs/behaviour/documents.md, docs/decisions/idempotency-keys.md): streamed into
 * the file store, answered again for a retry with the same Idempotency-Key, and held to the firm's upload quota.
 */
describe('document uploads', () => {
  const node = testSingleNode({ UPLOAD_QUOTA_MB_PER_FIRM: '3' });
  let db: pg.Pool;
  let alice: ApiClient;
  let dealId: string;

  const newDeal = async (client: ApiClient, tag: string) => {
    const agent = async (type: 'borrower' | 'lender') =>
      (await client.post<AgentView>('/api/agents', { name: `${tag} ${type}`, type })).body.id;
    const answer = await client.post<DealView>('/api/deals', {
      borrowerAgentId: await agent('borrower'),
      lenderAgentId: await agent('lender'),
      propertyAddress: `1 ${tag} Street, London`,
      propertyValue: 400_000,
      loanAmount: 300_000,
      interestRate: 4.25,
      termYears: 25,
    });
    expect(answer.status).toBe(201);
    return answer.body.id;
  };

  beforeAll(async () => {
    db = new pg.Pool({ connectionString: node.database.url, max: 2 });
    alice = await ApiClient.signIn(node.server.url);
    dealId = await newDeal(alice, 'Upload');
  });
  afterAll(async () => {
    await db?.end();
  });

  const upload = async (client: ApiClient, file: { name: string; bytes: Buffer }, key?: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('dealId', fields.dealId ?? dealId);
    form.append('type', fields.type ?? 'valuation');
    form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
    const response = await fetch(`${node.server.url}/api/documents`, {
      method: 'POST',
      headers: { cookie: client.cookie, origin: node.server.url, ...(key ? { 'idempotency-key': key } : {}) },
      body: form,
    });
    return {
      status: response.status,
      body: (await response.json()) as DocumentUploadedAnswer & ApiError,
      position: response.headers.get('x-position'),
      replayed: response.headers.get('idempotent-replayed'),
    };
  };
  const count = async (sql: string, values: unknown[] = []) => Number((await db.query<{ n: string }>(sql, values)).rows[0]!.n);
  const uploadedEvents = (name: string) =>
    count("select count(*) as n from events where type = 'DocumentUploaded' and data->>'name' = $1", [name]);
  const storedFiles = () => count('select count(*) as n from document_files');
  const storedChunks = () => count('select count(*) as n from document_file_chunks');

  it('answers an upload with an Idempotency-Key 201, and a retry the same answer, storing nothing twice', async () => {
    for (const size of [50 * 1024, 200 * 1024, 2 * 1024 * 1024]) {
      const name = `scan-${size}.png`;
      const bytes = pngOf(size);
      const key = `upload-${size}`;
      const filesBefore = await storedFiles();
      const first = await upload(alice, { name, bytes }, key);
      expect({ size, status: first.status }).toEqual({ size, status: 201 });
      expect(first.body.contentType).toBe('image/png');
      const retry = await upload(alice, { name, bytes }, key);
      expect({ size, status: retry.status, body: retry.body, position: retry.position, replayed: retry.replayed }).toEqual({
        size,
        status: 201,
        body: first.body,
        position: first.position,
        replayed: 'true',
      });
      expect(await uploadedEvents(name)).toBe(1);
      expect(await storedFiles()).toBe(filesBefore + 1);
      // The bytes as stored are the bytes sent, and the event records their SHA-256.
      const stored = await db.query<{ bytes: Buffer }>('select bytes from document_file_chunks where document_id = $1 order by seq', [
        first.body.id,
      ]);
      expect(Buffer.concat(stored.rows.map((row) => row.bytes)).equals(bytes)).toBe(true);
      expect(stored.rows.length).toBe(Math.ceil(size / (256 * 1024)));
    }
    // The chunks of the retries went: every chunk belongs to a stored file.
    expect(
      await count(
        'select count(*) as n from document_file_chunks c where not exists (select 1 from document_files f where f.document_id = c.document_id)',
      ),
    ).toBe(0);
  });

  it('refuses the same key with another file (422) and serves the stored file back whole', async () => {
    const first = await upload(alice, { name: 'terms.pdf', bytes: PDF_BYTES }, 'reused-upload-key');
    expect(first.status).toBe(201);
    const other = await upload(alice, { name: 'terms.pdf', bytes: pngOf(4096) }, 'reused-upload-key');
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/^Idempotency-Key: "reused-upload-key" was already used for a different request/);
    // A file part sent with an empty file name (busboy then gives none) is stored, named from the fields or "Document".
    expect((await upload(alice, { name: '', bytes: PDF_BYTES }, 'no-file-name')).status).toBe(201);
    const link = await alice.post<{ url: string }>(`/api/documents/${first.body.id}/downloads`);
    expect(link.status).toBe(201);
    const file = await fetch(`${node.server.url}${link.body.url}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF_BYTES)).toBe(true);
  });

  it("refuses an upload over the firm's quota with a 413 naming it, keeping nothing of it; another firm has its own", async () => {
    const bob = await ApiClient.signIn(node.server.url);
    const bobDeal = await newDeal(bob, 'Quota');
    const first = await upload(bob, { name: 'first.png', bytes: pngOf(1024 * 1024) }, undefined, { dealId: bobDeal });
    expect(first.status).toBe(201);
    expect(await count('select size as n from document_files where document_id = $1', [first.body.id])).toBe(1024 * 1024);
    expect((await upload(bob, { name: 'second.png', bytes: pngOf(1024 * 1024) }, undefined, { dealId: bobDeal })).status).toBe(201);
    const [files, chunks] = [await storedFiles(), await storedChunks()];
    const over = await upload(bob, { name: 'third.png', bytes: pngOf(1536 * 1024) }, 'over-quota', { dealId: bobDeal });
    expect(over.status).toBe(413);
    expect(over.body.message).toBe(
      "file: This file (1.5 MB) would take your firm's documents to 3.5 MB, over its upload quota of 3.0 MB (UPLOAD_QUOTA_MB_PER_FIRM); nothing was stored",
    );
    expect([await storedFiles(), await storedChunks()]).toEqual([files, chunks]);
    expect(await uploadedEvents('third.png')).toBe(0);
    // A key whose upload was refused for the quota is not kept: the same upload, once it fits, is carried out.
    expect((await upload(bob, { name: 'third.png', bytes: pngOf(900 * 1024) }, 'fits', { dealId: bobDeal })).status).toBe(201);
    // Alice's firm is counted apart.
    expect((await upload(alice, { name: 'alice.png', bytes: pngOf(512 * 1024) })).status).toBe(201);
  });

  it('refuses a file that is not a PDF, JPEG or PNG, or larger than 10 MB, keeping nothing of it', async () => {
    const [files, chunks] = [await storedFiles(), await storedChunks()];
    const text = await upload(alice, { name: 'notes.pdf', bytes: Buffer.from('just some words, not a PDF at all') }, 'not-a-pdf');
    expect(text.status).toBe(400);
    expect(text.body.message).toBe("file: only PDF, JPEG and PNG documents are accepted, and this file's content is none of them");
    const huge = await upload(alice, { name: 'huge.png', bytes: pngOf(10 * 1024 * 1024 + 1) }, 'huge');
    expect(huge.status).toBe(413);
    expect(huge.body.message).toBe('file: The file is larger than 10 MB, the most a document may be');
    expect([await storedFiles(), await storedChunks()]).toEqual([files, chunks]);
  });
});
