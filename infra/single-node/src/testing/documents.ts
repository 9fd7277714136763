import type { DocumentUploadedAnswer } from '@pf/events';
import type { ApiAnswer, ApiClient } from './api-client';

/** A real 1×1 PNG and a minimal PDF: their bytes, not their names, make them what they are. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** POST /api/documents as a browser form would send it; a test that expects a refusal names `ApiError`. */
export async function uploadDocument<T = DocumentUploadedAnswer>(
  client: ApiClient,
  fields: Record<string, string>,
  file: { name: string; bytes: Buffer; type?: string } | null,
): Promise<Omit<ApiAnswer<T>, 'headers'>> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const response = await fetch(`${client.baseUrl}/api/documents`, {
    method: 'POST',
    headers: { cookie: client.cookie, origin: client.baseUrl },
    body: form,
  });
  const position = response.headers.get('x-position');
  if (position) client.lastPosition = position;
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}
