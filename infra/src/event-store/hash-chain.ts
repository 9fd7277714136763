import { hash } from 'node:crypto';
import type { BrokenLink, EventMetadata, StreamVerification } from '@pf/events';
import { formatPosition, type Position } from '@pf/events';

/**
 * Tamper evidence (docs/behaviour/history.md): every stored event carries a SHA-256 hash over a canonical encoding of its
 * immutable fields (id, stream, version, type, data, metadata, time) and the hash of the event before it in
 * its stream. Both adapters compute it with this
 * module on append and the verifier recomputes it from what the store answers, so a stored event changed,
 * removed or moved by hand no longer links. Pure: no I/O, nothing but the fields passed in.
 */

export interface ChainFields {
  readonly id: string;
  readonly stream: string;
  readonly streamVersion: number;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
  readonly recordedAt: Date;
  readonly previousHash: string | null;
}

export interface ChainLink {
  readonly hash: string;
  readonly previousHash: string | null;
}

/**
 * JSON with object keys sorted (by UTF-16 code units, as RFC 8785 does) and no whitespace. Values are taken as
 * JSON.stringify takes them (toJSON first; undefined, functions and symbols dropped from objects and null in
 * arrays; non-finite numbers null; a cycle or a BigInt refused), so what a store cannot keep is dropped exactly
 * as it is on the way in, and a jsonb column, which reorders keys, answers the same text. Encoded in one walk,
 * not through a JSON text parsed back (that round trip was about half of hashing an event).
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  const text = encode(value, '', []);
  if (text === undefined) throw new SyntaxError('canonicalJson: the value has no JSON form');
  return text;
}

/** Member names' JSON texts: events repeat a small vocabulary of names, so each is quoted once (up to a bound). */
const quotedNames = new Map<string, string>();
const MAX_QUOTED_NAMES = 10_000;

function quotedName(name: string): string {
  let quoted = quotedNames.get(name);
  if (quoted === undefined) {
    quoted = JSON.stringify(name);
    if (quotedNames.size < MAX_QUOTED_NAMES) quotedNames.set(name, quoted);
  }
  return quoted;
}

/**
 * The text JSON.stringify would give `value` (as the member `key` of its holder), keys sorted; undefined when it gives
 * none. `ancestors`: the objects being encoded around it, outermost first (a cycle is refused). Built by appending to
 * one string rather than joining arrays of parts: it runs for every event appended, and with the hashing was about a
 * quarter of the appending process's busy time in a profile of the Emmett comparison (bench/README.md).
 */
function encode(value: unknown, key: string, ancestors: object[]): string | undefined {
  if ((typeof value === 'object' && value !== null) || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = (toJSON as (key: string) => unknown).call(value, key);
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      // A finite number's JSON text is its String() (both are ECMAScript's Number::toString, -0 as "0").
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON.stringify does
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return 'null';
  const object = value;
  if (ancestors.includes(object)) throw new TypeError('canonicalJson: a cycle has no JSON form');
  ancestors.push(object);
  try {
    if (Array.isArray(object)) {
      let text = '[';
      for (let i = 0; i < object.length; i++) text += (i > 0 ? ',' : '') + (encode(object[i], String(i), ancestors) ?? 'null');
      return `${text}]`;
    }
    const prototype = Object.getPrototypeOf(object) as unknown;
    // Anything but a plain object (a boxed number, a Map, a class's instance) as JSON.stringify sees it.
    if (prototype !== Object.prototype && prototype !== null) return encode(JSON.parse(JSON.stringify(object)), key, ancestors);
    let text = '{';
    for (const name of Object.keys(object).sort()) {
      const member = encode((object as Record<string, unknown>)[name], name, ancestors);
      if (member !== undefined) text += (text.length > 1 ? ',' : '') + quotedName(name) + ':' + member;
    }
    return `${text}}`;
  } finally {
    ancestors.pop();
  }
}

/**
 * The event's own fields, canonically encoded (everything but its version and its link). Times are whole
 * milliseconds (what a JavaScript Date holds), so a store must keep the time it hashed at that precision.
 * A format number leads, so the encoding can change without ambiguity.
 */
export function canonicalEncoding(fields: Omit<ChainFields, 'previousHash' | 'streamVersion'>): string {
  return canonicalJson({
    v: 1,
    id: fields.id.toLowerCase(),
    stream: fields.stream,
    type: fields.type,
    data: fields.data,
    metadata: fields.metadata,
    time: fields.recordedAt.toISOString(),
  });
}

/** One-shot (crypto.hash, Node 20.12): half the time of a Hash object for texts this size. Strings are hashed as UTF-8. */
const sha256 = (text: string) => hash('sha256', text, 'hex');

/** SHA-256 of the canonical encoding: computable before the append, by whoever holds the event. */
export function contentDigest(fields: Omit<ChainFields, 'previousHash' | 'streamVersion'>): string {
  return sha256(canonicalEncoding(fields));
}

/**
 * The link: SHA-256 over the previous hash (empty for a stream's first event), the version and the content
 * digest, one per line. Kept this small on purpose, so a store can compute it where the head is known (under
 * the stream lock, even inside one SQL statement: `encode(sha256(convert_to(coalesce(previous, '') || E'\n' ||
 * version || E'\n' || digest, 'UTF8')), 'hex')`), while the digest of the immutable fields is made beforehand.
 */
export function linkHash(previousHash: string | null, streamVersion: number, digest: string): string {
  return sha256(`${previousHash ?? ''}\n${streamVersion}\n${digest}`);
}

export function chainHash(fields: ChainFields): string {
  return linkHash(fields.previousHash, fields.streamVersion, contentDigest(fields));
}

/** Links a batch being appended to its stream's head hash (null for a new stream), in order. */
export function linkEvents<E extends Omit<ChainFields, 'previousHash'>>(headHash: string | null, events: readonly E[]): (E & ChainLink)[] {
  let previousHash = headHash;
  return events.map((event) => {
    const hash = chainHash({ ...event, previousHash });
    const linked = { ...event, previousHash, hash };
    previousHash = hash;
    return linked;
  });
}

/** A stored event as the verifier reads it: the hashed fields, its link, and where it sits. */
export interface StoredLink extends Omit<ChainFields, 'previousHash'> {
  readonly position: Position | null;
  readonly hash: string | null;
  readonly previousHash: string | null;
}

/** What the store says the end of a stream is (PostgreSQL keeps it beside the stream's version). */
export interface StreamHead {
  readonly version: number;
  readonly hash: string | null;
}

/**
 * Recomputes one stream's chain from its stored events (as read, ordered by version) and its head, and names
 * the first link that does not hold: a missing version (a deleted event), an event whose contents no longer
 * give its hash (altered), one that does not point at the event before it (moved or replaced), or a head
 * that the last event does not reach (events removed from the end).
 */
export function verifyStream(stream: string, events: readonly StoredLink[], head: StreamHead | null): StreamVerification {
  const result = (firstBroken: BrokenLink | null): StreamVerification => ({
    stream,
    intact: firstBroken === null,
    events: events.length,
    headVersion: head?.version ?? (events.length ? events[events.length - 1]!.streamVersion : null),
    headHash: head?.hash ?? (events.length ? events[events.length - 1]!.hash : null),
    firstBroken,
  });
  const broken = (event: StoredLink | null, streamVersion: number, reason: string): StreamVerification =>
    result({
      stream,
      position: event?.position ? formatPosition(event.position) : null,
      streamVersion,
      eventId: event?.id ?? null,
      type: event?.type ?? null,
      reason,
    });

  const storedHashes = new Map(events.filter((e) => e.hash).map((e) => [e.hash!, e.streamVersion]));
  let previous: StoredLink | null = null;
  for (const [index, event] of events.entries()) {
    if (event.streamVersion !== index) {
      return broken(
        event,
        index,
        index === 0
          ? `The stream's first event (version 0) is missing: it starts at version ${event.streamVersion}`
          : `The event at version ${index} is missing: version ${event.streamVersion} follows version ${index - 1}`,
      );
    }
    if (event.hash === null) {
      return broken(event, index, `Event ${index} (${event.type}) carries no hash: it was stored unchained or its hash was removed`);
    }
    const expectedPrevious = previous?.hash ?? null;
    if (event.previousHash !== expectedPrevious) {
      const pointsAt = event.previousHash === null ? undefined : storedHashes.get(event.previousHash);
      return broken(
        event,
        index,
        pointsAt !== undefined
          ? `Event ${index} (${event.type}) is out of order: it was chained after version ${pointsAt}, not after version ${index - 1}`
          : `Event ${index} (${event.type}) does not link to the event before it: its previous hash is not that event's hash`,
      );
    }
    if (chainHash({ ...event, previousHash: event.previousHash }) !== event.hash) {
      return broken(event, index, `Event ${index} (${event.type}) was altered: its stored contents no longer give its hash`);
    }
    previous = event;
  }
  if (head) {
    const lastVersion = previous?.streamVersion ?? -1;
    if (head.version > lastVersion) {
      return broken(
        null,
        lastVersion + 1,
        `Events ${lastVersion + 1} to ${head.version} are missing: the stream's head is version ${head.version} but its last stored event is version ${lastVersion}`,
      );
    }
    if (head.version < lastVersion) {
      return broken(
        previous,
        lastVersion,
        `The stream's head says version ${head.version}, but events up to version ${lastVersion} are stored`,
      );
    }
    if (head.hash !== null && previous && head.hash !== previous.hash) {
      return broken(
        previous,
        lastVersion,
        `The stream's head hash does not match its last event (version ${lastVersion}): the end of the chain was replaced`,
      );
    }
  }
  return result(null);
}
