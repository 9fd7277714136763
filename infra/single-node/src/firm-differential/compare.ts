import { isDeepStrictEqual } from 'node:util';

/**
 * What firm B read in one run: every read route's answer (status, the version it carries, the body) under a label
 * that is the same in both runs (the route, and which of B's records filled its parameters: "GET /api/agents/:id
 * [B's agent 2]", never the raw id), and every message its socket was sent, in order.
 */
export interface Capture {
  readonly answers: Map<string, { status: number; etag: string | null; body: unknown }>;
  readonly pushes: unknown[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A notification's id (sha-256 of its event and firm, 24 hex digits), a hash, a document's digest. */
const HEX_ID = /\b[0-9a-f]{24,64}\b/g;
/** The short id a person's name carries where two people could share one ("Bea Brown (f61570fe)"). */
const SHORT_ID = /\(([0-9a-f]{8})\)/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const POSITION = /^\d+:\d+$/;
/** A record named by its kind and number inside a text: a stream ("agent-12") or a link ("/conversations/3"). */
const NAMED = /\b(agent|conversation|deal|match|document|user)(-|s\/)(\d+)\b/g;
/** Keys whose values are generated ids (numbers from the id sequences, or strings) or secrets made at random. */
const ID_KEY = /^(id|ids|[a-z][A-Za-z]*Ids?|token|prefix|etag|[a-z][A-Za-z]*Hash|hash|sha256)$/;
/** Keys whose values are times, or durations measured between times (the database's answer time included). */
const TIME_KEY = /(At|Date|date|Time|Times|time|Days|Hours|Seconds|lastContact|lastActivity|timeAgo)$|^(ms|days|since)$/;
const POSITION_KEY = /^(position|previousPosition|after|lastPosition)$/;

/** The kind an id key names: "fromAgentId", "agentIds" and "agentId" all name agents. */
const kindOf = (key: string) =>
  key
    .replace(/Ids?$/, '')
    .replace(/^(from|to|borrower|lender|broker)(?=[A-Z])/, '')
    .toLowerCase() || key;

/**
 * Rewrites one answer so that what may differ between two runs of the same script does not: times, positions, and
 * the ids the store and the sequences hand out (B's own records get other ids when firm A has written before them).
 * Each distinct id of a kind becomes `kind#n`, numbered in the order it is first met in this answer, so the same
 * record is the same `#n` in both runs as long as the answer lists the same things in the same order, and a record
 * of another firm's that slipped in shows as an extra entry (and shifts the numbers after it). Nothing else is
 * touched: names, amounts, counts, statuses, texts and the order of lists are compared as they are.
 */
class Normaliser {
  private readonly ids = new Map<string, string>();

  private idOf(kind: string, raw: string): string {
    const key = `${kind}:${raw}`;
    let id = this.ids.get(key);
    if (!id) {
      id = `${kind}#${[...this.ids.keys()].filter((k) => k.startsWith(`${kind}:`)).length + 1}`;
      this.ids.set(key, id);
    }
    return id;
  }

  private text(value: string): string {
    if (POSITION.test(value)) return '<position>';
    if (DAY.test(value)) return '<day>';
    return value
      .replace(ISO_TIME, '<time>')
      .replace(UUID, (found) => this.idOf('uuid', found.toLowerCase()))
      .replace(HEX_ID, (found) => this.idOf('hex', found))
      .replace(SHORT_ID, (_, found: string) => `(${this.idOf('short', found)})`)
      .replace(NAMED, (_, kind: string, joint: string, id: string) => `${kind}${joint}${this.idOf(kind, id)}`);
  }

  normalise(value: unknown, key = ''): unknown {
    if (value === null || value === undefined) return value;
    if (Array.isArray(value)) return value.map((item) => this.normalise(item, key));
    if (typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.normalise(v, k)]));
    }
    if (POSITION_KEY.test(key)) return '<position>';
    if (TIME_KEY.test(key) && (typeof value === 'number' || typeof value === 'string')) return '<time>';
    if (ID_KEY.test(key) && typeof value === 'number') return this.idOf(kindOf(key), String(value));
    if (ID_KEY.test(key) && typeof value === 'string')
      return /^[0-9a-f-]{24,}$/i.test(value) ? this.text(value) : this.idOf(kindOf(key), value);
    if (typeof value === 'string') return this.text(value);
    return value;
  }
}

/** A capture with each answer and each push normalised on its own (its ids numbered within it). */
function normalise(capture: Capture): { answers: Record<string, unknown>; pushes: unknown[] } {
  const answers: Record<string, unknown> = {};
  for (const [label, answer] of capture.answers) {
    answers[label] = { status: answer.status, etag: answer.etag, body: new Normaliser().normalise(answer.body) };
  }
  return { answers, pushes: capture.pushes.map((push) => new Normaliser().normalise(push)) };
}

/** Where two captures differ, route by route and push by push: an empty list when B read the same in both. */
export function differences(busy: Capture, quiet: Capture): string[] {
  const a = normalise(busy);
  const b = normalise(quiet);
  const found: string[] = [];
  for (const path of new Set([...Object.keys(a.answers), ...Object.keys(b.answers)])) {
    if (!isDeepStrictEqual(a.answers[path], b.answers[path])) {
      found.push(`${path}: ${JSON.stringify(a.answers[path]).slice(0, 600)} ≠ ${JSON.stringify(b.answers[path]).slice(0, 600)}`);
    }
  }
  const pushes = Math.max(a.pushes.length, b.pushes.length);
  for (let index = 0; index < pushes; index += 1) {
    if (!isDeepStrictEqual(a.pushes[index], b.pushes[index])) {
      found.push(`push ${index + 1}: ${JSON.stringify(a.pushes[index])} ≠ ${JSON.stringify(b.pushes[index])}`);
      break; // a missing or extra push shifts every one after it: the first says where
    }
  }
  if (a.pushes.length !== b.pushes.length) found.push(`pushes: ${a.pushes.length} ≠ ${b.pushes.length}`);
  return found;
}
