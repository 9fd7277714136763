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

export interface Answer {
  readonly status: number;
  readonly body: any;
  readonly position: string | null;
}

/** One request as the console makes it: cookie, same-origin Origin, JSON, optional x-after-position. */
export async function call(
  baseUrl: string,
  user: BenchUser | null,
  method: string,
  path: string,
  body?: unknown,
  afterPosition?: string | null,
): Promise<Answer> {
  const headers: Record<string, string> = { origin: baseUrl };
  if (user) headers.cookie = user.cookie;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (afterPosition) headers['x-after-position'] = afterPosition;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, position: response.headers.get('x-position') };
}

export function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status)
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  return answer;
}
