import type { SessionStore } from '@pf/infra';
import { SESSION_COOKIE } from '@pf/infra';

export interface BenchUser {
  readonly id: string;
  readonly cookie: string;
}

/**
 * A signed-in user made through the session store on the product's database: GET /api/login is
 * limited to 30 sign-ins a minute per client, and the benchmarks need more users than that.
 */
export async function benchUser(sessions: SessionStore): Promise<BenchUser> {
  const { token, user } = await sessions.signInGuest('bench');
  return { id: user.id, cookie: `${SESSION_COOKIE}=${token}` };
}

export interface Answer<T = unknown> {
  readonly status: number;
  /** The parsed JSON answer, as the caller names it (a view of @pf/events); null for an empty body. */
  readonly body: T;
  readonly position: string | null;
}

/** GET /readyz as the benchmarks read it: the followers of the log have a position and a lag; listeners neither. */
export interface Readiness {
  readonly followers?: readonly { position: string | null; lag: number | null }[];
}

/** One request as the console makes it: cookie, same-origin Origin, JSON, optional x-after-position. */
export async function call<T = unknown>(
  baseUrl: string,
  user: BenchUser | null,
  method: string,
  path: string,
  body?: unknown,
  afterPosition?: string | null,
): Promise<Answer<T>> {
  const headers: Record<string, string> = { origin: baseUrl };
  if (user) headers.cookie = user.cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (afterPosition) headers['x-after-position'] = afterPosition;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, position: response.headers.get('x-position') };
}

export function expectStatus<T>(answer: Answer<T>, status: number, what: string): Answer<T> {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  return answer;
}
