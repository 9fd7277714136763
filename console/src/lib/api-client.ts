import type { z } from 'zod';
import { backoffDelay, describeZodError, USER_MESSAGES } from '@pf/events';
import { notePosition, latestPosition } from './position';
import { answered, isTransientStatus, keyFor, leftUnanswered, requestIdentity } from './write-keys';

/**
 * What a person reads of a failed answer (docs/behaviour/README.md "Errors"): the server's own `message` where the
 * body is the contract's `{message}`; a body of plain text as it is; otherwise (an empty body, JSON without a
 * message, a proxy's HTML page) the status in words. Never the raw body: a screen shows this text as it is.
 */
function answerInWords(status: number, body: string, statusText: string): string {
  const trimmed = body.trim();
  const message = messageOf(trimmed);
  if (message !== null) return message;
  const isMarkup = /^[[{<]/.test(trimmed);
  if (trimmed && !isMarkup && trimmed.length <= 300) return trimmed;
  return `The server answered ${status}${statusText ? ` ${statusText}` : ''}`;
}

/** The `message` of a JSON object, or null when the text is not one. */
function messageOf(text: string): string | null {
  if (!text.startsWith('{')) return null;
  try {
    const body: unknown = JSON.parse(text);
    const message = typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
    return typeof message === 'string' && message.trim() ? message : null;
  } catch {
    return null;
  }
}

/**
 * Text about to be shown that may still hold an answer's raw JSON (`403: {"message":"…"}` from an older error,
 * or a body passed on as it came): its message in words. Other text is returned unchanged. The toaster passes
 * every text through this, so no toast can show raw JSON.
 */
export function inWords(text: string): string {
  const json = /^(?:(\d{3}): )?(\{[\s\S]*\})$/.exec(text.trim());
  if (!json) return text;
  return messageOf(json[2]!) ?? (json[1] ? `The server answered ${json[1]}` : 'The server gave no reason');
}

/** A non-OK answer: its status, its raw body (for code that reads a field of it), and the answer in words as its message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(answerInWords(status, body, statusText));
    this.name = 'ApiError';
  }
}

/** What to tell the user about a failed call: its message in words (an ApiError's is the server's own). */
export function failureReason(error: unknown): string {
  return inWords(error instanceof Error ? error.message : String(error));
}

/**
 * An OK answer whose body is not the shape the contract (`@pf/events`) promises: the console and the server
 * disagree, usually a console older than the server. Said plainly instead of failing later in a component.
 */
export class ContractError extends Error {
  constructor(method: string, path: string, reason: string) {
    super(`The answer to ${method} ${path} is not what this console expects (${reason}); reload the page to get the current console`);
    this.name = 'ContractError';
  }
}

export function isUnauthorised(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/** An answer with its `x-position`: the command's last event, or the position a read reflects (null: none, or a command that changed nothing). */
export interface Positioned<T> {
  readonly data: T;
  readonly position: string | null;
}

async function request<Schema extends z.ZodType>(method: string, path: string, schema: Schema, body?: unknown): Promise<z.output<Schema>> {
  return (await send(method, path, schema, body)).data;
}

/** How often a write whose answer was lost to the network is sent again, with the same key, before giving up. */
const WRITE_ATTEMPTS = 3;
const WRITE_RETRY = { baseMs: 250, maxMs: 2000 } as const;

/**
 * A request the network failed (fetch rejects with a TypeError; an abort is a DOMException and is not retried).
 * Its answer may have been lost after the server acted, which is why a write is only ever sent again with its key.
 */
const isNetworkFailure = (error: unknown) => error instanceof TypeError;

/**
 * Sends a write with its `Idempotency-Key` (docs/decisions/idempotency-keys.md), again with the same key while the
 * network fails, so a retry never acts twice. Still unanswered after the last attempt, the key is kept for the
 * same request sent again (write-keys.ts).
 */
async function sendWrite(
  method: string,
  path: string,
  init: RequestInit & { headers: Record<string, string> },
  body: unknown,
): Promise<Response> {
  const identity = requestIdentity(method, path, body);
  const key = keyFor(identity);
  const headers = { ...init.headers, 'idempotency-key': key };
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(path, { ...init, headers });
      if (isTransientStatus(response.status)) leftUnanswered(identity, key);
      else answered(identity);
      return response;
    } catch (error) {
      if (!isNetworkFailure(error)) throw error;
      if (attempt + 1 >= WRITE_ATTEMPTS) {
        leftUnanswered(identity, key);
        throw new Error(USER_MESSAGES.writeUnanswered, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt, WRITE_RETRY, Math.random)));
    }
  }
}

async function send<Schema extends z.ZodType>(
  method: string,
  path: string,
  schema: Schema,
  body?: unknown,
): Promise<Positioned<z.output<Schema>>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // A form (a file upload) sets its own multipart content type with its boundary.
  const isForm = body instanceof FormData;
  if (body !== undefined && !isForm) headers['content-type'] = 'application/json';
  const after = latestPosition();
  if (method === 'GET' && after) headers['x-after-position'] = after;
  const init = {
    method,
    headers,
    credentials: 'include' as const,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  };
  const response = method === 'GET' ? await fetch(path, init) : await sendWrite(method, path, init, body);
  const position = response.headers.get('x-position');
  notePosition(position);
  if (!response.ok) throw new ApiError(response.status, await response.text(), response.statusText);
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw new ContractError(method, path, 'it is not JSON');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ContractError(method, path, describeZodError(parsed.error));
  return { data: parsed.data, position };
}

/**
 * The console's one HTTP client (credentials included, JSON in and out). Every call names the
 * schema of its answer from `@pf/events`, and the answer is parsed with it rather than cast.
 */
export const api = {
  get: <Schema extends z.ZodType>(path: string, schema: Schema) => request('GET', path, schema),
  /** GET, with the position the answer reflects (to tell it from a push of a later state). */
  getPositioned: <Schema extends z.ZodType>(path: string, schema: Schema) => send('GET', path, schema),
  post: <Schema extends z.ZodType>(path: string, schema: Schema, body?: unknown) => request('POST', path, schema, body ?? {}),
  /** multipart/form-data, for uploads. */
  postForm: <Schema extends z.ZodType>(path: string, schema: Schema, form: FormData) => request('POST', path, schema, form),
  put: <Schema extends z.ZodType>(path: string, schema: Schema, body: unknown) => request('PUT', path, schema, body),
  patch: <Schema extends z.ZodType>(path: string, schema: Schema, body: unknown) => request('PATCH', path, schema, body),
  /** PATCH, with the position the change was written at (to tell its answer from a later push). */
  patchPositioned: <Schema extends z.ZodType>(path: string, schema: Schema, body: unknown) => send('PATCH', path, schema, body),
  delete: <Schema extends z.ZodType>(path: string, schema: Schema) => request('DELETE', path, schema),
  request: <Schema extends z.ZodType>(method: string, path: string, schema: Schema, body?: unknown) => request(method, path, schema, body),
};
