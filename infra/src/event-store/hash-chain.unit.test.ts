import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventMetadata } from '@pf/events';
import { canonicalJson, chainHash, contentDigest, linkEvents, linkHash, verifyStream, type StoredLink } from './hash-chain';

const metadata: EventMetadata = { actor: { kind: 'user', userId: 'u1', sessionId: 's1' }, correlationId: 'c', causationId: null };
const at = new Date('2026-01-01T09:00:00.123Z');

function chain(count: number): StoredLink[] {
  const events = Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-00000000000${i}`,
    stream: 'conversation-1',
    streamVersion: i,
    type: i === 0 ? 'ConversationStarted' : 'MessageSent',
    data: { conversationId: 1, n: i, nested: { b: 2, a: [1, { d: 4, c: 3 }] } },
    metadata,
    recordedAt: at,
  }));
  return linkEvents(null, events).map((event, i) => ({ ...event, position: { commit: 10n, prepare: BigInt(i + 1) } }));
}

// docs/decisions/hash-chain.md: canonical JSON (keys sorted, no whitespace), so the text jsonb gives back hashes as written.
describe('canonical encoding', () => {
  // The encoding as first written: through JSON text and back, then keys sorted. Stored hashes were made by it.
  const sorted = (value: unknown): string => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    if (Array.isArray(value)) return `[${value.map(sorted).join(',')}]`;
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sorted(record[key])}`)
      .join(',')}}`;
  };
  const roundTrip = (value: unknown): string => sorted(JSON.parse(JSON.stringify(value)));

  it('sorts keys at every depth and drops what JSON drops, so a jsonb round trip gives the same text', () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [2, { z: 1, y: null }] } })).toBe('{"a":{"c":[2,{"y":null,"z":1}]},"b":1}');
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });

  it('takes values as JSON.stringify does: the same text as the encoding of the JSON round trip it replaced', () => {
    class Money {
      constructor(readonly pence: number) {}
    }
    const values: unknown[] = [
      { at: new Date(Date.UTC(2026, 0, 2)), money: new Money(5), tags: new Map([['a', 1]]), boxed: Object(3) as unknown },
      [undefined, () => 1, Symbol('s'), Number.NaN, -0, 1e21, 'é\u0000"\\', [], {}],
      { toJSON: (key: string) => ({ key, z: 1, a: undefined }) },
      { é: 1, e: 2, E: 3, '10': 4, '9': 5, '': 6, 'a b': { y: [{ d: 1, c: 2 }], x: null } },
      Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
      'text',
      42,
      null,
      true,
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(roundTrip(value));
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(TypeError);
    expect(() => canonicalJson({ amount: 5n })).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(SyntaxError);
    expect(canonicalJson(undefined)).toBe('null');
  });

  it("gives the round trip's text for any value JSON can hold, and again for the same member names (their quoted texts are kept)", () => {
    fc.assert(
      fc.property(
        fc.anything({
          withNullPrototype: true,
          withObjectString: true,
          withBoxedValues: true,
          withMap: true,
          withSparseArray: true,
          withDate: true,
        }),
        (value) => {
          fc.pre(JSON.stringify(value) !== undefined);
          expect(canonicalJson(value)).toBe(roundTrip(value));
          expect(canonicalJson(value)).toBe(roundTrip(value));
        },
      ),
      { numRuns: 500 },
    );
  });

  // docs/decisions/hash-chain.md: the hash covers id, stream, version, type, data, metadata and time.
  it('hashes every immutable field: changing any one changes the hash', () => {
    const base = { id: 'E', stream: 's', streamVersion: 0, type: 'T', data: { a: 1 }, metadata, recordedAt: at, previousHash: null };
    const hash = chainHash(base);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const changes = [
      { id: 'F' },
      { stream: 't' },
      { streamVersion: 1 },
      { type: 'U' },
      { data: { a: 2 } },
      { metadata: { ...metadata, correlationId: 'd' } },
      { recordedAt: new Date(at.getTime() + 1) },
      { previousHash: 'ab' },
    ];
    for (const change of changes) expect(chainHash({ ...base, ...change }), JSON.stringify(change)).not.toBe(hash);
  });
});

describe('the link', () => {
  it('is the hash of the previous hash, the version and the content digest, so a store can compute it under its lock', () => {
    const fields = {
      id: 'E',
      stream: 's',
      streamVersion: 4,
      type: 'T',
      data: { a: 1 },
      metadata,
      recordedAt: at,
      previousHash: 'ab'.repeat(32),
    };
    expect(chainHash(fields)).toBe(linkHash(fields.previousHash, 4, contentDigest(fields)));
  });
});

// docs/decisions/hash-chain.md: any change, removal or reordering of a stored event breaks the links after it.
describe('verifyStream', () => {
  it('accepts an intact chain and its head', () => {
    const events = chain(4);
    const result = verifyStream('conversation-1', events, { version: 3, hash: events[3]!.hash });
    expect(result).toMatchObject({ intact: true, events: 4, headVersion: 3, firstBroken: null });
  });

  it('names an altered event by version, type and position', () => {
    const events = chain(4);
    events[2] = { ...events[2]!, data: { conversationId: 1, n: 99 } };
    const result = verifyStream('conversation-1', events, { version: 3, hash: events[3]!.hash });
    expect(result.intact).toBe(false);
    expect(result.firstBroken).toMatchObject({ streamVersion: 2, type: 'MessageSent', position: '10:3', eventId: events[2].id });
    expect(result.firstBroken!.reason).toContain('was altered');
  });

  it('names a deleted event in the middle (a missing version) and at the end (the head is further on)', () => {
    const events = chain(4);
    const middle = verifyStream('conversation-1', [events[0]!, events[1]!, events[3]!], { version: 3, hash: events[3]!.hash });
    expect(middle.firstBroken).toMatchObject({ streamVersion: 2 });
    expect(middle.firstBroken!.reason).toBe('The event at version 2 is missing: version 3 follows version 1');
    const end = verifyStream('conversation-1', events.slice(0, 3), { version: 3, hash: events[3]!.hash });
    expect(end.firstBroken!.reason).toContain('Events 3 to 3 are missing');
  });

  it('names events that were swapped', () => {
    const events = chain(4);
    const swapped = [events[0]!, { ...events[2]!, streamVersion: 1 }, { ...events[1]!, streamVersion: 2 }, events[3]!];
    const result = verifyStream('conversation-1', swapped, { version: 3, hash: events[3]!.hash });
    expect(result.firstBroken).toMatchObject({ streamVersion: 1, eventId: events[2]!.id });
    expect(result.firstBroken!.reason).toContain('out of order');
  });

  it('catches a rewritten hash through the next link, and a replaced end through the head', () => {
    const events = chain(3);
    const forged = [...events];
    forged[1] = { ...events[1]!, data: { x: 1 } };
    forged[1] = { ...forged[1], hash: chainHash({ ...forged[1], previousHash: forged[1].previousHash }) };
    expect(verifyStream('s', forged, { version: 2, hash: events[2]!.hash }).firstBroken).toMatchObject({ streamVersion: 2 });
    const last = { ...events[2]!, data: { y: 1 } };
    const rechained = [events[0]!, events[1]!, { ...last, hash: chainHash({ ...last, previousHash: last.previousHash }) }];
    expect(verifyStream('s', rechained, { version: 2, hash: events[2]!.hash }).firstBroken!.reason).toContain('head hash');
  });

  it('names an event stored before the chain existed', () => {
    const events = chain(2);
    const result = verifyStream('s', [{ ...events[0]!, hash: null, previousHash: null }, events[1]!], null);
    expect(result.firstBroken!.reason).toContain('carries no hash');
  });
});
