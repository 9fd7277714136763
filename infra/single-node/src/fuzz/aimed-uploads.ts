import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { PDF_BYTES, PNG_BYTES } from '../testing/documents';
import type { FuzzTarget } from './report';

/**
 * Uploads sent with an Idempotency-Key (docs/decisions/idempotency-keys.md), each with the answers it must get:
 * the first 201; the same upload again the same answer (status, body, x-position) with idempotent-replayed: true;
 * the same key with other bytes 422. Sizes from a few hundred bytes to 2 MB, the file's name hostile or not.
 */
export interface UploadInput {
  readonly kind: 'idempotent upload';
  readonly format: 'pdf' | 'png';
  readonly size: number;
  readonly name: string;
  readonly reuseWithOtherBytes: boolean;
}

export function uploadInput(): fc.Arbitrary<UploadInput> {
  return fc.record({
    kind: fc.constant('idempotent upload' as const),
    format: fc.constantFrom('pdf' as const, 'png' as const),
    size: fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 200, max: 64 * 1024 }) },
      { weight: 3, arbitrary: fc.integer({ min: 64 * 1024, max: 300 * 1024 }) },
      { weight: 1, arbitrary: fc.constant(2 * 1024 * 1024) },
    ),
    name: fc.oneof(fc.constantFrom('scan.png', 'terms.pdf', 'a\u0000b.pdf', 'Invoice\u202Efdp.exe', ''), fc.string({ maxLength: 40 })),
    reuseWithOtherBytes: fc.boolean(),
  });
}

/** The format's real first bytes, then random bytes up to `size`: what is sniffed is the start. */
const fileOf = (format: 'pdf' | 'png', size: number) => {
  const head = format === 'pdf' ? PDF_BYTES : PNG_BYTES;
  return Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);
};

export async function sendUpload(target: FuzzTarget, input: UploadInput): Promise<string | null> {
  const key = `fuzz-upload-${randomBytes(12).toString('hex')}`;
  const bytes = fileOf(input.format, input.size);
  const send = async (file: Buffer) => {
    const form = new FormData();
    form.append('dealId', target.dealId);
    form.append('type', 'financial');
    form.append('file', new Blob([new Uint8Array(file)]), input.name);
    const response = await fetch(`${target.url}/api/documents`, {
      method: 'POST',
      headers: { cookie: target.cookie, origin: target.url, 'idempotency-key': key },
      body: form,
      signal: AbortSignal.timeout(60_000),
    });
    return {
      status: response.status,
      body: await response.text(),
      position: response.headers.get('x-position'),
      replayed: response.headers.get('idempotent-replayed'),
    };
  };
  const what = `an upload of ${input.size} bytes (${input.format}, name ${JSON.stringify(input.name)}) with Idempotency-Key ${key}`;
  const first = await send(bytes);
  if (first.status !== 201) return `${what} answered ${first.status} (expected 201): ${first.body.slice(0, 200)}`;
  const retry = await send(bytes);
  if (retry.status !== 201 || retry.body !== first.body || retry.position !== first.position || retry.replayed !== 'true') {
    return `the retry of ${what} answered ${retry.status} ${retry.body.slice(0, 200)} (x-position ${retry.position}, replayed ${retry.replayed}); the first answered 201 ${first.body.slice(0, 200)} (x-position ${first.position})`;
  }
  if (!input.reuseWithOtherBytes) return null;
  const other = await send(fileOf(input.format, input.size + 1));
  return other.status === 422
    ? null
    : `${what} reused with other bytes answered ${other.status} (expected 422): ${other.body.slice(0, 200)}`;
}
