import { createHmac, timingSafeEqual } from 'node:crypto';

/** How a signed link serves the file: shown in the page (View) or saved (Download, Share). */
export type Disposition = 'inline' | 'attachment';

export interface LinkClaims {
  documentId: string;
  disposition: Disposition;
  /** Unix time in seconds after which the link no longer works. */
  expires: number;
}

const payload = (claims: LinkClaims) => `${claims.documentId}.${claims.disposition}.${claims.expires}`;

function signature(secret: Buffer, claims: LinkClaims): string {
  return createHmac('sha256', secret).update(payload(claims)).digest('base64url');
}

/** A path anyone may open until it expires: the HMAC covers the document, the disposition and the expiry. */
export function signLink(secret: Buffer, claims: LinkClaims): string {
  const query = new URLSearchParams({ d: claims.disposition, e: String(claims.expires), s: signature(secret, claims) });
  return `/files/documents/${claims.documentId}?${query.toString()}`;
}

export type LinkCheck = { ok: true; claims: LinkClaims } | { ok: false; reason: string };

/** Checks a link's query against its document id at `nowSeconds` (passed in, so tests need no clock). */
export function checkLink(secret: Buffer, documentId: string, query: Record<string, unknown>, nowSeconds: number): LinkCheck {
  const disposition = query.d;
  const expires = Number(query.e);
  const given = typeof query.s === 'string' ? query.s : '';
  if ((disposition !== 'inline' && disposition !== 'attachment') || !Number.isInteger(expires) || !given) {
    return { ok: false, reason: 'This link is incomplete; ask for a new one' };
  }
  const claims: LinkClaims = { documentId, disposition, expires };
  const expected = Buffer.from(signature(secret, claims));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
    return { ok: false, reason: 'This link is not valid; ask for a new one' };
  }
  if (expires < nowSeconds) return { ok: false, reason: 'This link has expired; ask for a new one' };
  return { ok: true, claims };
}
