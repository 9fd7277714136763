import { z } from 'zod';

/**
 * PostgreSQL cannot store the NUL character in text or jsonb, and a lone UTF-16 surrogate has no UTF-8
 * form (jsonb rejects its escape; a text column would silently get U+FFFD). Such text is refused at the
 * edge, naming the field, rather than failing as a 500 deep in an append or a projection.
 */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain the NUL character (\\u0000) or an unpaired surrogate';

export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !UNPAIRED_SURROGATE.test(value);
}

/** Every text field of every command and socket message starts here: a string PostgreSQL can store. */
export function storableText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE, abort: true });
}

/**
 * Characters a reader cannot see that change what a name or an address appears to say: the bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: "Invoice\u202Efdp.exe" reads as
 * "Invoiceexe.pdf"), the direction marks (U+200E, U+200F, U+061C), zero-width space and word joiner,
 * invisible operators, the byte-order mark, deprecated format characters, interlinear annotations, the
 * Mongolian vowel separator, and the C0 and C1 control characters. The zero-width joiner and non-joiner
 * (U+200C, U+200D) stay allowed: emoji sequences and Persian or Indic spellings need them.
 */
const INVISIBLE = /[\p{Cc}\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/u;

export function hasInvisibleControl(value: string): boolean {
  return INVISIBLE.test(value);
}

export const invisibleControlMessage = (field: string) =>
  `${field} must not contain invisible control characters (such as U+202E, the right-to-left override, or a line break)`;

/** A name or an address: storable text with no invisible control characters, refused naming the field. */
export function visibleText(field: string, params?: Parameters<typeof z.string>[0]) {
  return storableText(params).refine((value) => !hasInvisibleControl(value), { error: invisibleControlMessage(field), abort: true });
}
