import { createHash } from 'node:crypto';

/** A UUID derived from a key: the same decision always yields the same event ids, so a retry stores nothing twice. */
export function deterministicId(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  // Shaped as a version 8 (custom) UUID with the RFC 4122 variant.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
