import { fileTypeFromBuffer } from 'file-type';
import { DOCUMENT_CONTENT_TYPES, type DocumentContentType } from '@pf/events';

export type Sniffed = { ok: true; contentType: DocumentContentType } | { ok: false; found: string | null };

/** What the bytes are (their signature), whatever the file's name or declared type says. */
export async function sniffDocument(content: Uint8Array): Promise<Sniffed> {
  const found = await fileTypeFromBuffer(content);
  const mime = found?.mime ?? null;
  return (DOCUMENT_CONTENT_TYPES as readonly string[]).includes(mime ?? '')
    ? { ok: true, contentType: mime as DocumentContentType }
    : { ok: false, found: mime };
}
