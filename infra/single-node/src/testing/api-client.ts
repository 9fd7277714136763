/**
 * A signed-in API client for tests: keeps its session cookie like a browser and, like the console,
 * sends the last x-position it was given as x-after-position on reads.
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

  async request(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
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
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body?: unknown) => this.request('POST', path, body);
  put = (path: string, body?: unknown) => this.request('PUT', path, body);
  patch = (path: string, body?: unknown) => this.request('PATCH', path, body);
  delete = (path: string) => this.request('DELETE', path);
}
