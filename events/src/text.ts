import { z } from 'zod';

/**
 * PostgreSQL cannot store the NUL character in text or jsonb, and a lone UTF-16 surrogate has no UTF-8
 * form (jsonb rejects its escape; a text column would silently get U+FFFD). Such text is refused at the
 * edge, naming the field, rather than failing as a 500 deep in an append or a projection.
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain the NUL character (\\u0000) or an unpaired surrogate';

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Every text field of every command and socket message starts here: a string PostgreSQL can store. */
export function storableText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE, abort: true });
}
