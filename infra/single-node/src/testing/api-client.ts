// A caller names the answer's type (get<AgentView>(...)); one that does not gets `unknown` and must narrow it.
type Untyped = unknown;

/** An answer as a test reads it: the body typed by the caller (a view of @pf/events, or `ApiError`). */
export interface ApiAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A signed-in API client for tests: keeps its session cookie like a browser and, like the console,
 * sends the last x-position it was given as x-after-position on reads. A caller names the answer's type
 * (`get<AgentView>(...)`); the client does not check it, the test's assertions do.
 */
export class ApiClient {
  cookie = '';
  lastPosition: string | null = null;

  constructor(readonly baseUrl: string) {}

  static async signIn(baseUrl: string): Promise<ApiClient> {
    const client = new ApiClient(baseUrl);
    const response = await fetch(`${baseUrl}/api/login`, { redirect: 'manual' });
    client.cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    if (!client.cookie) throw new Error(`Sign-in set no cookie (status ${response.status})`);
    return client;
  }

  async request<T = Untyped>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { cookie: this.cookie, origin: this.baseUrl, ...extraHeaders };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method === 'GET' && this.lastPosition) headers['x-after-position'] = this.lastPosition;
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const position = response.headers.get('x-position');
    if (position) this.lastPosition = position;
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
  }

  get = <T = Untyped>(path: string) => this.request<T>('GET', path);
  post = <T = Untyped>(path: string, body?: unknown) => this.request<T>('POST', path, body);
  put = <T = Untyped>(path: string, body?: unknown) => this.request<T>('PUT', path, body);
  patch = <T = Untyped>(path: string, body?: unknown) => this.request<T>('PATCH', path, body);
  delete = <T = Untyped>(path: string) => this.request<T>('DELETE', path);
}
