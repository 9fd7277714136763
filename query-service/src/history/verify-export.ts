import { historyExport, streams as streamNames, type HistoryEvent } from '@pf/events';
import { contentDigest, linkHash } from '@pf/infra';

/**
 * Checks an exported history (GET .../history/export?format=json, or `npm run audit -- export`) with nothing
 * but the file: every event's hash is recomputed from the exported fields (hash-chain.ts: the content digest
 * of id, stream, type, data, metadata and time, then the link over the previous hash, the version and that
 * digest) and each stream's events must link one to the next from version 0. A redacted event (another
 * owner's agent) brings its content digest instead of its data: its link is checked, its hidden contents are
 * not (they cannot be without revealing them). Pure, so the auditor needs no database and no service.
 *
 * What it proves: the file is one consistent chain per stream, so no event in it was altered, dropped or moved
 * after export without recomputing every later hash. Whether the chain is the one the store holds is for
 * `verify --conversation` or a signed checkpoint of the heads: an exporter who rewrote a whole chain passes here.
 */

interface ExportProblem {
  readonly stream: string;
  readonly streamVersion: number | null;
  readonly eventId: string | null;
  readonly position: string | null;
  readonly type: string | null;
  readonly reason: string;
}

export interface ExportVerdict {
  readonly intact: boolean;
  readonly conversationId: number | null;
  readonly events: number;
  /** Events checked by content digest alone (redacted): linked, contents not seen. */
  readonly digestOnly: number;
  readonly streams: number;
  readonly firstBroken: ExportProblem | null;
}

const HEX64 = /^[0-9a-f]{64}$/;

function digestOf(event: HistoryEvent): string | null {
  if (event.redacted) return event.contentDigest && HEX64.test(event.contentDigest) ? event.contentDigest : null;
  const recordedAt = new Date(event.recordedAt);
  if (Number.isNaN(recordedAt.getTime())) return null;
  return contentDigest({
    id: event.id,
    stream: event.stream,
    type: event.type,
    data: event.data,
    metadata: event.metadata as never,
    recordedAt,
  });
}

export function verifyExport(file: unknown): ExportVerdict {
  const parsed = historyExport.safeParse(file);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const reason = `Not a history export: ${issue.path.join('.') || 'the file'}: ${issue.message}`;
    return {
      intact: false,
      conversationId: null,
      events: 0,
      digestOnly: 0,
      streams: 0,
      firstBroken: { stream: '', streamVersion: null, eventId: null, position: null, type: null, reason },
    };
  }
  const exported = parsed.data;
  const verdict = (firstBroken: ExportProblem | null, streams: number): ExportVerdict => ({
    intact: firstBroken === null,
    conversationId: exported.conversationId,
    events: exported.events.length,
    digestOnly: exported.events.filter((e) => e.redacted).length,
    streams,
    firstBroken,
  });
  const problem = (event: HistoryEvent, reason: string): ExportProblem => ({
    stream: event.stream,
    streamVersion: event.streamVersion,
    eventId: event.id,
    position: event.position,
    type: event.type,
    reason,
  });

  const last = new Map<string, HistoryEvent>();
  for (const event of exported.events) {
    const previous = last.get(event.stream) ?? null;
    const expectedVersion = previous ? previous.streamVersion + 1 : 0;
    const label = `Event ${event.streamVersion} of ${event.stream} (${event.type})`;
    if (event.streamVersion !== expectedVersion) {
      return verdict(
        problem(
          event,
          `${label} is out of place: version ${expectedVersion} of ${event.stream} should come next (an event was removed or moved)`,
        ),
        last.size,
      );
    }
    if (!event.hash) return verdict(problem(event, `${label} carries no hash`), last.size);
    if (event.previousHash !== (previous?.hash ?? null)) {
      return verdict(
        problem(event, `${label} does not link to the event before it: its previous hash is not that event's hash`),
        last.size,
      );
    }
    const digest = digestOf(event);
    if (digest === null) {
      const why = event.redacted ? 'it is redacted but carries no valid content digest' : 'its recorded time is not a time';
      return verdict(problem(event, `${label} cannot be checked: ${why}`), last.size);
    }
    if (linkHash(event.previousHash, event.streamVersion, digest) !== event.hash) {
      return verdict(problem(event, `${label} was altered: its exported fields no longer give its hash`), last.size);
    }
    last.set(event.stream, event);
  }

  // The conversation's own stream is exported whole, so its last event must be the head the exporter verified.
  const own = streamNames.conversation(exported.conversationId);
  const head = exported.verification.streams.find((s) => s.stream === own);
  const lastOwn = last.get(own);
  if (head && head.headVersion !== null && (!lastOwn || lastOwn.streamVersion !== head.headVersion || lastOwn.hash !== head.headHash)) {
    const reason = `The export ends ${own} at version ${lastOwn?.streamVersion ?? 'none'}, but its verdict names head version ${head.headVersion} (${head.headHash?.slice(0, 16) ?? 'no hash'}): events were removed from the end`;
    return verdict(
      {
        stream: own,
        streamVersion: lastOwn?.streamVersion ?? null,
        eventId: lastOwn?.id ?? null,
        position: lastOwn?.position ?? null,
        type: lastOwn?.type ?? null,
        reason,
      },
      last.size,
    );
  }
  return verdict(null, last.size);
}
