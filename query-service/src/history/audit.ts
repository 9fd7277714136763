import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type pg from 'pg';
import { comparePositions, formatPosition, isIsoTime, START, type StreamVerification } from '@pf/events';
import {
  checkpointSignatureHolds,
  compareWithCheckpoint,
  contentDigest,
  generateSigningKeys,
  loadCheckpoint,
  signCheckpoint,
  signedCheckpoint,
  verifyAllStreams,
  verifyStreams,
  type EventStore,
  type StoredEvent,
} from '@pf/infra';
import { erasedBatch, type ErasedEvent } from '../read-models/event-feed/batch';
import { READ_MODELS_PROJECTION } from '../projector/checkpoint';
import { historyCsv, historyJson } from './export';
import { toHistoryEvents } from './history-events';
import { loadHistory } from './load-history';
import { personNames } from './people';
import { withoutDeleted } from './erasure';
import { verifyExport } from './verify-export';

const AUDIT_USAGE = `npm run audit -- <command>
  verify --conversation N        recompute the hash chains of a conversation and what it depends on
  verify --all                   recompute every stream's chain
  verify --file FILE             check an exported JSON history offline (no database): every hash and link in it
         [--checkpoint FILE --public-key FILE]   and hold the store to a saved signed checkpoint
  checkpoint --key FILE --out FILE   sign the heads of every stream (Ed25519) into a checkpoint file
  keygen --out-dir DIR           make an Ed25519 key pair (audit-signing.key, audit-signing.pub)
  export --conversation N [--format json|csv] [--out FILE]   a conversation's full history
  export --from ISO --to ISO [--out FILE]                     every event recorded in a time range (JSON lines),
                                 a deleted person's data removed as the event feed removes it
Exit status: 0 intact (or done), 1 tampering found, 2 wrong usage.`;

export interface AuditIo {
  /** The events as stored: what the hash chain covers and the export hands out. */
  readonly store: EventStore<StoredEvent>;
  readonly pool: pg.Pool;
  readonly print: (line: string) => void;
  readonly now: () => Date;
}

class Usage extends Error {}

function describe(verdict: StreamVerification): string {
  if (verdict.intact)
    return `intact  ${verdict.stream}: ${verdict.events} events, head ${verdict.headVersion ?? '-'} ${verdict.headHash?.slice(0, 16) ?? ''}`;
  const broken = verdict.firstBroken!;
  return `BROKEN  ${verdict.stream}: version ${broken.streamVersion}${broken.position ? ` at position ${broken.position}` : ''}${broken.eventId ? ` (event ${broken.eventId})` : ''}: ${broken.reason}`;
}

async function output(io: AuditIo, out: string | undefined, text: string): Promise<void> {
  if (out) {
    await writeFile(out, text);
    io.print(`Wrote ${out}`);
  } else io.print(text.replace(/\n$/, ''));
}

function conversationOf(value: string | undefined): number {
  if (!value || !/^\d{1,15}$/.test(value) || Number(value) < 1)
    throw new Usage(`--conversation must be a positive whole number, not "${value ?? ''}"`);
  return Number(value);
}

/** The auditor's CLI (docs/behaviour/history.md). Returns the exit status; reads the store through its port. */
export async function runAudit(argv: readonly string[], io: AuditIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof Usage || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.print(`${(error as Error).message}\n\n${AUDIT_USAGE}`);
      return 2;
    }
    throw error;
  }
}

async function dispatch(argv: readonly string[], io: AuditIo): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      conversation: { type: 'string' },
      all: { type: 'boolean' },
      checkpoint: { type: 'string' },
      'public-key': { type: 'string' },
      key: { type: 'string' },
      out: { type: 'string' },
      'out-dir': { type: 'string' },
      format: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      file: { type: 'string' },
    },
    strict: true,
  });
  switch (command) {
    case 'verify':
      return verifyCommand(values, io);
    case 'checkpoint': {
      if (!values.key || !values.out) throw new Usage('checkpoint needs --key FILE and --out FILE');
      const verdicts = await verifyAllStreams(io.store);
      const broken = verdicts.filter((v) => !v.intact);
      if (broken.length) {
        broken.forEach((v) => io.print(describe(v)));
        io.print('Not signing: a checkpoint must only vouch for intact chains.');
        return 1;
      }
      const heads = verdicts.map((v) => ({ stream: v.stream, version: v.headVersion!, hash: v.headHash! }));
      const checkpoint = signCheckpoint(heads, await readFile(values.key, 'utf8'), io.now());
      await writeFile(values.out, `${JSON.stringify(checkpoint, null, 2)}\n`);
      io.print(`Signed the heads of ${heads.length} streams; root ${checkpoint.root}; wrote ${values.out}`);
      return 0;
    }
    case 'keygen': {
      if (!values['out-dir']) throw new Usage('keygen needs --out-dir DIR');
      const keys = generateSigningKeys();
      await writeFile(`${values['out-dir']}/audit-signing.key`, keys.privateKeyPem, { mode: 0o600 });
      await writeFile(`${values['out-dir']}/audit-signing.pub`, keys.publicKeyPem);
      io.print(`Wrote ${values['out-dir']}/audit-signing.key (keep it away from the database) and audit-signing.pub`);
      return 0;
    }
    case 'export':
      return exportCommand(values, io);
    default:
      throw new Usage(command ? `Unknown command "${command}"` : 'Name a command');
  }
}

/** `verify --file`: asks nothing of the store, so audit-main runs it without opening a database. */
export function isOfflineAudit(argv: readonly string[]): boolean {
  return argv[0] === 'verify' && argv.some((arg) => arg === '--file' || arg.startsWith('--file='));
}

async function verifyFileCommand(file: string, io: AuditIo): Promise<number> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Usage(`--file ${file} could not be read as JSON: ${(error as Error).message}`);
  }
  const verdict = verifyExport(json);
  const broken = verdict.firstBroken;
  if (broken) {
    const where = broken.eventId ? ` event ${broken.eventId}${broken.position ? ` at position ${broken.position}` : ''}` : '';
    io.print(`BROKEN ${where ? `${where.trim()}: ` : ' '}${broken.reason}`);
    io.print('Tampering found: the file is not the chain it was exported as.');
    return 1;
  }
  io.print(
    `intact  conversation ${verdict.conversationId}: ${verdict.events} events in ${verdict.streams} streams, every hash recomputed` +
      (verdict.digestOnly ? ` (${verdict.digestOnly} redacted, checked by their content digest)` : ''),
  );
  io.print('This proves the file is unaltered since export; `verify --conversation` or a signed checkpoint ties it to the store.');
  return 0;
}

async function verifyCommand(values: Record<string, string | boolean | undefined>, io: AuditIo): Promise<number> {
  if (values.file) {
    if (values.all || values.conversation) throw new Usage('verify --file checks a file alone: leave out --conversation and --all');
    return verifyFileCommand(values.file as string, io);
  }
  if (Boolean(values.all) === Boolean(values.conversation)) throw new Usage('verify needs either --conversation N, --all or --file FILE');
  let verdicts: StreamVerification[];
  if (values.conversation) {
    const id = conversationOf(values.conversation as string);
    const history = await loadHistory(io.store, id);
    if (!history) throw new Usage(`Conversation ${id} has no events`);
    verdicts = await verifyStreams(io.store, history.streams);
  } else verdicts = await verifyAllStreams(io.store);
  verdicts.forEach((v) => io.print(describe(v)));
  let ok = verdicts.every((v) => v.intact);
  if (values.checkpoint) {
    if (!values['public-key']) throw new Usage('--checkpoint needs --public-key FILE (the key it was signed with)');
    const checkpoint = signedCheckpoint.parse(JSON.parse(await readFile(values.checkpoint as string, 'utf8')));
    if (!checkpointSignatureHolds(checkpoint, await readFile(values['public-key'] as string, 'utf8'))) {
      io.print(`BROKEN  the checkpoint ${values.checkpoint} is not signed by this key, or was changed after signing`);
      return 1;
    }
    const mismatches = await compareWithCheckpoint(checkpoint, async (stream, version) => {
      const [event] = await io.store.readStream(stream, version);
      return event && event.streamVersion === version ? (event.hash ?? null) : undefined;
    });
    mismatches.forEach((m) => io.print(`BROKEN  ${m.reason}`));
    if (!mismatches.length)
      io.print(`The store still holds the ${checkpoint.heads.length} heads signed at ${checkpoint.createdAt} (root ${checkpoint.root})`);
    ok &&= mismatches.length === 0;
  }
  io.print(ok ? `Verified ${verdicts.length} streams: every chain is intact.` : 'Tampering found: see the BROKEN lines above.');
  return ok ? 0 : 1;
}

async function exportCommand(values: Record<string, string | boolean | undefined>, io: AuditIo): Promise<number> {
  const out = values.out as string | undefined;
  if (values.conversation) {
    const id = conversationOf(values.conversation as string);
    const loaded = await loadHistory(io.store, id);
    if (!loaded) throw new Usage(`Conversation ${id} has no events`);
    // The exported file is erased as the API's is: a deleted party's words leave every export (erasure.ts).
    const history = await withoutDeleted(io.pool, loaded);
    const events = toHistoryEvents(history.records, history.started.participants, null, await personNames(io.pool, history.records));
    if (values.format === 'csv') {
      await output(io, out, historyCsv(events));
      return 0;
    }
    if (values.format && values.format !== 'json') throw new Usage('--format must be json or csv');
    const verification = await verifyStreams(io.store, history.streams);
    const intact = verification.every((v) => v.intact);
    const body = historyJson(
      id,
      events,
      { conversationId: id, intact, streams: verification, verifiedAt: io.now().toISOString() },
      io.now().toISOString(),
    );
    await output(io, out, `${JSON.stringify(body, null, 2)}\n`);
    return 0;
  }
  const from = values.from as string | undefined;
  const to = values.to as string | undefined;
  if (!from || !to || !isIsoTime(from) || !isIsoTime(to))
    throw new Usage('export needs --conversation N, or --from and --to as ISO times such as 2026-01-01T00:00:00Z');
  const [start, end] = [Date.parse(from), Date.parse(to)];
  const lines: string[] = [];
  let erased = 0;
  // Who deleted their account is read from the read models, so they must have applied every event exported.
  const applied = await loadCheckpoint(io.pool, READ_MODELS_PROJECTION);
  let after = START;
  for (;;) {
    const batch = await io.store.readAll(after, 1000);
    const inRange = batch.filter((event) => event.recordedAt.getTime() >= start && event.recordedAt.getTime() < end);
    const ahead = inRange.find((event) => comparePositions(event.position, applied) > 0);
    if (ahead) {
      io.print(
        `The read models have applied events up to ${formatPosition(applied)} only, and ${formatPosition(ahead.position)} is to be exported: ` +
          'start the product (npm start) until it has caught up, then export again.',
      );
      return 1;
    }
    for (const erasedEvent of await erasedBatch(io.pool, inRange)) {
      lines.push(rangeLine(erasedEvent));
      if (erasedEvent.redacted.length > 0) erased += 1;
    }
    if (batch.length < 1000) break;
    after = batch[batch.length - 1]!.position;
  }
  await output(io, out, lines.length ? `${lines.join('\n')}\n` : '');
  if (out)
    io.print(`${lines.length} events recorded from ${from} to ${to}${erased ? ` (${erased} with a deleted person's data removed)` : ''}`);
  return 0;
}

/**
 * One line of a range export: the event as stored, or, when a deleted person's data was removed from it
 * (docs/decisions/hash-chain.md "Erasure"), as erased, naming the fields emptied in `redacted` and carrying the
 * content digest of the event as stored, which its hash covers: the link can still be checked without what went.
 */
function rangeLine({ event, redacted, stored }: ErasedEvent): string {
  const line = { ...event, position: formatPosition(event.position), recordedAt: event.recordedAt.toISOString() };
  return JSON.stringify(redacted.length === 0 ? line : { ...line, redacted, contentDigest: contentDigest(stored) });
}
