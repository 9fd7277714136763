import { Invalid } from '@pf/infra';

/**
 * Cursors of the paged lists (events/src/paging.ts): the last row's sort key, base64url-encoded so a client
 * treats it as opaque. A cursor that does not decode to the key's shape is the client's mistake: 400.
 */
export const encodeCursor = (key: readonly (string | number)[]) => Buffer.from(JSON.stringify(key)).toString('base64url');

export function decodeCursor<Key extends readonly unknown[]>(
  cursor: string | undefined,
  isKey: (value: unknown[]) => value is unknown[] & Key,
): Key | null {
  if (!cursor) return null;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = null;
  }
  if (!Array.isArray(key) || !isKey(key)) throw new Invalid('cursor: cursor must be a cursor from a previous page');
  return key;
}

/** `%text%` for ILIKE, with the pattern characters in the search taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
