import { z } from 'zod';
import { visibleText } from './text';

/** Document type and status. */
export const DOCUMENT_TYPES = ['valuation', 'application', 'financial', 'legal', 'insurance'] as const;
export const documentType = z.enum(DOCUMENT_TYPES, { error: 'type must be one of valuation, application, financial, legal, insurance' });
export type DocumentType = z.infer<typeof documentType>;

export const DOCUMENT_STATUSES = ['approved', 'pending', 'rejected'] as const;
export const documentStatus = z.enum(DOCUMENT_STATUSES, { error: 'status must be one of approved, pending, rejected' });
export type DocumentStatus = z.infer<typeof documentStatus>;

/** What an upload may be, judged by its bytes, never its name. */
export const DOCUMENT_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export const documentContentType = z.enum(DOCUMENT_CONTENT_TYPES);
export type DocumentContentType = z.infer<typeof documentContentType>;
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

const documentId = z.string().uuid();
const dealId = z.string().uuid();

export const documentUploaded = z.object({
  type: z.literal('DocumentUploaded'),
  data: z.object({
    documentId,
    dealId,
    name: z.string(),
    documentType,
    contentType: documentContentType,
    size: z.number().int().nonnegative(),
    /** Hex SHA-256 of the stored bytes: anyone holding the file can check it is the one uploaded. */
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    /**
     * Who uploaded it, by user id only: a name is personal data, so the read side looks it up at read time and a
     * deleted account leaves none behind. Events recorded before this carry `name` in clear (still readable).
     */
    uploadedBy: z.object({ userId: z.string(), name: z.string().optional() }),
    /**
     * The firms of the deal's agents when it was uploaded: they, and only they, may see it. Written before firms
     * it held the owners' user ids, which are the ids of their firms of one (docs/decisions/firms-and-visibility.md).
     */
    ownerIds: z.array(z.string()).min(1),
  }),
});
export const documentStatusChanged = z.object({
  type: z.literal('DocumentStatusChanged'),
  data: z.object({ documentId, status: documentStatus, from: documentStatus }),
});
export const documentDownloaded = z.object({
  type: z.literal('DocumentDownloaded'),
  data: z.object({ documentId }),
});

/** The multipart fields beside the file (POST /api/documents). */
export const uploadDocumentFields = z.strictObject({
  dealId: z.string({ error: 'dealId is required: choose the deal the document belongs to' }).uuid({ error: 'dealId must be a deal id' }),
  type: documentType,
  name: visibleText('Document name').trim().max(200, { error: 'name is at most 200 characters' }).optional(),
});

export const changeDocumentInput = z.strictObject({ status: documentStatus });
export const documentUploadedAnswer = z.object({ id: z.string(), sha256: z.string(), contentType: documentContentType });
export type DocumentUploadedAnswer = z.infer<typeof documentUploadedAnswer>;
export const documentChangedAnswer = z.object({ id: z.string(), status: documentStatus });

/** An answer to Download or Share: a signed link that works without a session until it expires. */
export const documentLink = z.object({ url: z.string(), expiresAt: z.string() });
export type DocumentLink = z.infer<typeof documentLink>;

/** A document as the read side serves it (docs/behaviour/documents.md, with its deal's address and its checksum). */
export const documentView = z.object({
  id: z.string(),
  name: z.string(),
  type: documentType,
  contentType: documentContentType,
  /** Bytes; the console writes it as "2.4 MB". */
  size: z.number().int(),
  sha256: z.string(),
  uploadedBy: z.string(),
  uploadDate: z.string(),
  dealId: z.string(),
  dealAddress: z.string(),
  status: documentStatus,
  downloadCount: z.number().int(),
});
export type DocumentView = z.infer<typeof documentView>;
export const documentList = z.array(documentView);

/** The query of a signed link (checked by its HMAC, not by a schema: anything else is simply not valid). */
export const signedLinkQuery = z.object({ d: z.string().optional(), e: z.string().optional(), s: z.string().optional() });

/** The four figures of the Documents screen (docs/behaviour/documents.md). */
export const documentStatsView = z.object({
  totalDocuments: z.number().int(),
  pendingReview: z.number().int(),
  storageBytes: z.number(),
  downloads: z.number().int(),
});
export type DocumentStatsView = z.infer<typeof documentStatsView>;

/** "2.4 MB", "512 KB", "1.2 GB" (binary multiples, as file managers show them). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${bytes} bytes`;
  return `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}
