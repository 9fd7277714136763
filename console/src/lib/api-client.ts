import type { z } from 'zod';
import { describeZodError } from '@pf/events';
import { notePosition, latestPosition } from './position';

/** A non-OK answer, with the message docs/behaviour/README.md ("Errors") gives: "{status}: {body text or status text}". */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
  }
}

/** What to tell the user about a failed call: the server's own message where it gave one, else the error. */
export function failureReason(error: unknown): string {
  if (!(error instanceof ApiError)) return String(error);
  try {
    const body: unknown = JSON.parse(error.body || '{}');
    const message = typeof body === 'object' && body !== null && 'message' in body ? body.message : undefined;
    return typeof message === 'string' ? message : error.message;
  } catch {
    return error.message;
  }
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

/** An answer with the `x-position` of the command behind it (null for a read, or a command that changed nothing). */
export interface Positioned<T> {
  readonly data: T;
  readonly position: string | null;
}

async function request<Schema extends z.ZodType>(method: string, path: string, schema: Schema, body?: unknown): Promise<z.output<Schema>> {
  return (await send(method, path, schema, body)).data;
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
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'include',
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
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
