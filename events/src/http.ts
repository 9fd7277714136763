import { z } from 'zod';
import { positionToken } from './position';

/**
 * The shapes every HTTP route shares. A route declares its params, querystring, body and each answer
 * with these and the views of this package, so validation, serialisation and /docs come from one schema.
 * A new route, in a plugin typed `FastifyPluginAsyncZod<...>` (from @pf/infra) mounted by a service:
 *
 *   app.put('/api/deals/:id', {
 *     schema: { params: idParams('Deal'), headers: writeHeaders, body: changeDealInput,
 *               response: { 200: dealView, ...errorAnswers(...SIGNED_IN_ERRORS, 404, 409, 412) } },
 *   }, async (request, reply) => ...)   // request.params.id is a number, request.body is parsed
 */

/** Names the field and the rule: "name: Agent name is required" (issues joined by "; "). */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** Every error answer: 4xx name the field and the rule, 5xx never show internals. */
export const apiError = z.object({ message: z.string() });
export type ApiError = z.infer<typeof apiError>;

/** The error answers a route can give, keyed by status code, all of the shared shape. */
export function errorAnswers<const Code extends number>(...codes: Code[]): Record<Code, typeof apiError> {
  return Object.fromEntries(codes.map((code) => [code, apiError])) as Record<Code, typeof apiError>;
}

/** The errors every signed-in route may answer: bad input, no session, too many requests. */
export const SIGNED_IN_ERRORS = [400, 401, 429] as const;

/** A route id (":id"): a positive whole number of at most 15 digits, named in the error ("Agent id ..."). */
export function routeIdParam(what: string) {
  return z
    .string()
    .regex(/^(?=\d{1,15}$)0*[1-9]\d*$/, {
      error: (issue) => `${what} id must be a positive whole number, not "${String(issue.input).slice(0, 40)}"`,
    })
    .transform(Number);
}

/** Params of a route on one entity, such as /api/agents/:id. */
export function idParams(what: string) {
  return z.object({ id: routeIdParam(what) });
}

/** Headers of a read: x-after-position makes it wait until the read models include that write. */
export const readHeaders = z.object({ 'x-after-position': positionToken.optional() });

/**
 * Optimistic concurrency at the edge (as in the EventSourcing.NodeJS HTTP samples): an answer about one
 * aggregate carries its version (the stream's last event, from 0) as a weak ETag; a write that sends it back
 * in If-Match is decided only if the aggregate is still at that version, else 412.
 */
export function versionETag(version: number): string {
  return `W/"${version}"`;
}

const ETAG_PATTERN = /^(?:W\/)?"(\d{1,15})"$/;

export const ifMatchHeader = z.string().regex(ETAG_PATTERN, { error: 'If-Match must be an ETag this API gave, such as W/"3"' });

/** The version an If-Match header names (it has passed ifMatchHeader). */
export function versionFromETag(tag: string): number {
  const match = ETAG_PATTERN.exec(tag);
  if (!match) throw new RangeError(`Not a version ETag: ${tag}`);
  return Number(match[1]);
}

/** Idempotency-Key: 1 to 255 visible ASCII characters (the HTTP shell's idempotency plugin keeps the first answer). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const idempotencyKeyHeader = z.string().regex(IDEMPOTENCY_KEY_PATTERN, {
  error: 'Idempotency-Key must be 1 to 255 visible ASCII characters; a retry with the same key gets the first answer again',
});

/** Headers of every command: a retry that sends the same Idempotency-Key is carried out once. */
export const commandHeaders = z.object({ 'idempotency-key': idempotencyKeyHeader.optional() });

/** Headers of a write on one aggregate. */
export const writeHeaders = commandHeaders.extend({ 'if-match': ifMatchHeader.optional() });

export const healthView = z.object({ status: z.literal('ok') });
/** 503 from /healthz: the process cannot serve and will not recover by itself (a supervisor should restart it). */
export const notLiveAnswer = apiError.extend({ status: z.literal('failing') });

/** An answer that is a file (its bytes, not JSON): PDF, JPEG or PNG. */
export const fileAnswer = z.unknown().describe('The file itself: application/pdf, image/jpeg or image/png');

/** GET /readyz: the database and every follower of the event stream, with its lag in events. */
const readiness = {
  status: z.enum(['ready', 'not ready']),
  database: z.union([z.object({ ok: z.literal(true), ms: z.number() }), z.object({ ok: z.literal(false), error: z.string() })]),
  followers: z.array(
    z.object({
      name: z.string(),
      state: z.string(),
      position: z.string().nullable(),
      lag: z.number().int().nullable(),
      lastError: z.string().nullable(),
      restarts: z.number().int(),
    }),
  ),
  /**
   * The embedded database's backups (docs/operations/backups.md "Status"): when the last base backup and the last
   * archived WAL were taken, and warnings when backing up has stopped. Absent when the product keeps no backups.
   */
  backup: z
    .object({
      dir: z.string(),
      lastBaseBackupAt: z.string().nullable(),
      lastBaseBackupBytes: z.number().int().nullable(),
      lastArchivedWal: z.string().nullable(),
      lastArchivedAt: z.string().nullable(),
      /** The copy in an S3-compatible object store (BACKUP_S3_URL): when it was last brought up to date, and its last failure. */
      objectStore: z.object({ url: z.string(), lastCopiedAt: z.string().nullable(), lastError: z.string().nullable() }).nullable(),
      warnings: z.array(z.string()),
    })
    .optional(),
};
export const readinessView = z.object(readiness);
/** 503 from /readyz: the shared error (its message gives the reasons) with the same details as when ready. */
export const notReadyAnswer = apiError.extend(readiness);

/**
 * What POST /api/seed-demo created for the signed-in person's firm: the demo agents it did not have yet, the
 * scripted conversations between them (without the automated agents), and how many demo agents it had already
 * (pressed again, nothing is duplicated).
 */
export const seedDemoView = z.object({ agents: z.number().int(), conversations: z.number().int(), alreadyThere: z.number().int() });
export type SeedDemoView = z.infer<typeof seedDemoView>;

/** What POST /api/conversations/:id/demo-messages added: the lines recorded (a side held by its operator says none). */
export const demoMessagesView = z.object({ conversationId: z.number().int(), messages: z.number().int() });
export type DemoMessagesView = z.infer<typeof demoMessagesView>;

/** A redirect answer (302): no body, the Location header says where. */
/** A small HTML page (text/html), for a person in a browser rather than for the console. */
export const htmlAnswer = z.string().describe('An HTML page');

export function redirectAnswer(to: string) {
  return z.null().describe(`Redirects to ${to}`);
}
