import { describe, expect, it } from 'vitest';
import { NotFound } from '@pf/infra';
import { deciderSpec } from '../testing/decider-spec';
import { documentDecider } from './document';
import { checkLink, signLink } from './signed-link';
import { sniffDocument } from './sniff';

const documentId = '7a1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
const uploaded = {
  type: 'DocumentUploaded' as const,
  data: {
    documentId,
    dealId: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
    name: 'survey.pdf',
    documentType: 'valuation' as const,
    contentType: 'application/pdf' as const,
    size: 10,
    sha256: 'a'.repeat(64),
    uploadedBy: { userId: 'alice', name: 'Alice' },
    ownerIds: ['alice', 'bob'],
  },
};
const spec = deciderSpec(documentDecider);

describe('document decider', () => {
  it('is reviewed and downloaded only by the owners of its deal’s agents', () => {
    spec
      .given([uploaded])
      .when({ type: 'ReviewDocument', documentId, firmId: 'bob', status: 'approved' })
      .then([{ type: 'DocumentStatusChanged', data: { documentId, status: 'approved', from: 'pending' } }]);
    spec.given([uploaded]).when({ type: 'ReviewDocument', documentId, firmId: 'alice', status: 'pending' }).then([]);
    spec.given([uploaded]).when({ type: 'RecordDownload', documentId, firmId: 'mallory' }).thenThrows(NotFound);
    spec
      .given([uploaded])
      .when({ type: 'RecordDownload', documentId, firmId: 'alice' })
      .then([{ type: 'DocumentDownloaded', data: { documentId } }]);
  });
});

describe('signed links', () => {
  const secret = Buffer.alloc(32, 7);
  const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

  it('work until they expire, for the document and disposition they were signed for', () => {
    const url = signLink(secret, { documentId, disposition: 'inline', expires: 1000 });
    expect(checkLink(secret, documentId, query(url), 999)).toEqual({
      ok: true,
      claims: { documentId, disposition: 'inline', expires: 1000 },
    });
    expect(checkLink(secret, documentId, query(url), 1001)).toEqual({ ok: false, reason: 'This link has expired; ask for a new one' });
    expect(checkLink(secret, documentId, { ...query(url), d: 'attachment' }, 999).ok).toBe(false);
    expect(checkLink(secret, documentId, { ...query(url), e: '5000' }, 999).ok).toBe(false);
    expect(checkLink(secret, documentId.replace('7a', '7b'), query(url), 999).ok).toBe(false);
    expect(checkLink(Buffer.alloc(32, 8), documentId, query(url), 999).ok).toBe(false);
    expect(checkLink(secret, documentId, {}, 999)).toEqual({ ok: false, reason: 'This link is incomplete; ask for a new one' });
  });
});

describe('content sniffing', () => {
  it('knows PDF, JPEG and PNG by their bytes and nothing else', async () => {
    expect(await sniffDocument(Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', 'latin1'))).toEqual({
      ok: true,
      contentType: 'application/pdf',
    });
    expect(await sniffDocument(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]))).toEqual({
      ok: true,
      contentType: 'image/jpeg',
    });
    expect(
      await sniffDocument(
        Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
      ),
    ).toEqual({ ok: true, contentType: 'image/png' });
    expect(await sniffDocument(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'))).toEqual({ ok: false, found: 'image/gif' });
    expect(await sniffDocument(Buffer.from('plain text that mentions %PDF-1.7 later'))).toEqual({ ok: false, found: null });
  });
});
