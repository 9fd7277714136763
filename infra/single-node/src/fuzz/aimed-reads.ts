import fc from 'fast-check';
import { hostileNumber, hostileString } from './inputs';
import type { FuzzTarget } from './report';

/**
 * Inputs aimed at the paged lists and the event feed (events/src/paging.ts, events/src/position.ts), each with the
 * answer it must get: a cursor made up by the client (its key's parts hostile numbers, impossible dates, text with
 * NUL), a search `q`, and a feed position, each answered 200 or a 400 naming the parameter, never a 5xx. A feed
 * position is answered exactly: 200 for one a log can hold, 400 for one beyond.
 */
export type ReadInput =
  | { kind: 'paging cursor'; list: string; cursor: string }
  | { kind: 'paging search'; list: string; q: string }
  | { kind: 'feed position'; after: string };

const LISTS = ['agents', 'conversations', 'deals', 'documents', 'leads', 'matches'];
const SEARCHED = LISTS.filter((list) => list !== 'matches');

const timeLike = fc.oneof(
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')),
  fc.constantFrom(
    '2026-02-30T10:00:00.000000Z',
    '0000-01-01T00:00:00.000000Z',
    '2026-01-01T24:00:00.000000Z',
    '2026-13-01T00:00:00.000000Z',
    '+275760-09-13T00:00:00.000000Z',
    '2026-01-01T00:00:00.000000Z\u0000',
    '2026-01-01',
  ),
);
const keyPart = fc.oneof(hostileString, hostileNumber, timeLike, fc.constantFrom(1e300, -1e300, 2 ** 63, 2 ** 64, 0.5, null, true));
const madeUpCursor = fc.oneof(
  // At most 4,000 characters: a longer URL is refused by Node itself (431) before the app sees it.
  {
    weight: 4,
    arbitrary: fc.array(keyPart, { maxLength: 3 }).map((key) => Buffer.from(JSON.stringify(key)).toString('base64url').slice(0, 4000)),
  },
  { weight: 1, arbitrary: hostileString.map((text) => Buffer.from(text).toString('base64url').slice(0, 200) || 'x') },
);

const MAX_COMMIT = 2n ** 64n - 1n;
const MAX_PREPARE = 2n ** 63n - 1n;
const part = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }),
  fc.constantFrom(0n, MAX_PREPARE, MAX_PREPARE + 1n, MAX_COMMIT, MAX_COMMIT + 1n, 10n ** 20n - 1n),
);
const position = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(part, part).map(([commit, prepare]) => `${commit}:${prepare}`) },
  { weight: 1, arbitrary: hostileString },
);

export function readInput(): fc.Arbitrary<ReadInput> {
  return fc.oneof(
    fc.record({ kind: fc.constant('paging cursor' as const), list: fc.constantFrom(...LISTS), cursor: madeUpCursor }),
    fc.record({ kind: fc.constant('paging search' as const), list: fc.constantFrom(...SEARCHED), q: hostileString }),
    fc.record({ kind: fc.constant('feed position' as const), after: position }),
  );
}

/** Percent-encoded UTF-8, as a browser sends it (an unpaired surrogate becomes U+FFFD, as it would there). */
const encoded = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');

/** A position a log can hold: the feed reads from it (200); any other token is a 400 naming `after`. */
function isHoldablePosition(token: string): boolean {
  const match = /^(\d{1,20}):(\d{1,20})$/.exec(token);
  return match !== null && BigInt(match[1]!) <= MAX_COMMIT && BigInt(match[2]!) <= MAX_PREPARE;
}

const messageOf = (text: string) => {
  try {
    return (JSON.parse(text) as { message?: string }).message ?? '';
  } catch {
    return '';
  }
};

export async function sendRead(target: FuzzTarget, input: ReadInput): Promise<string | null> {
  const [path, headers, field] =
    input.kind === 'feed position'
      ? [`/api/events?follow=false&limit=1&after=${encoded(input.after)}`, { authorization: `Bearer ${target.feedToken}` }, 'after']
      : input.kind === 'paging cursor'
        ? [`/api/${input.list}/page?limit=2&cursor=${encoded(input.cursor)}`, { cookie: target.cookie }, 'cursor']
        : [`/api/${input.list}/page?limit=2&q=${encoded(input.q)}`, { cookie: target.cookie }, 'q'];
  const response = await fetch(`${target.url}${path}`, { headers, signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  const refusedNamingIt = response.status === 400 && messageOf(text).startsWith(`${field}: `);
  if (input.kind === 'feed position') {
    const holdable = isHoldablePosition(input.after);
    if (holdable ? response.status === 200 : refusedNamingIt) return null;
    return `GET ${path.slice(0, 200)} answered ${response.status} (expected ${holdable ? 200 : `400 naming ${field}`}): ${text.slice(0, 200)}`;
  }
  if (response.status === 200 || refusedNamingIt) return null;
  return `GET ${path.slice(0, 200)} answered ${response.status} (expected 200 or 400 naming ${field}): ${text.slice(0, 200)}`;
}
