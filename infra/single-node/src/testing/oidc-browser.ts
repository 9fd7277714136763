/**
 * Just enough of a browser for the OpenID Connect round trip over real HTTP: a cookie jar per origin, redirects
 * followed one by one (so each hop can be checked), and the provider's sign-in and consent forms submitted as a
 * person would (login typed, "Continue" or "[ Cancel ]").
 */
export class OidcTestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** Every URL visited, in order. */
  readonly visited: string[] = [];

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(new URL(origin).origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    this.jar(origin).set(name, value);
  }

  private jar(url: string): Map<string, string> {
    const origin = new URL(url).origin;
    if (!this.jars.has(origin)) this.jars.set(origin, new Map());
    return this.jars.get(origin)!;
  }

  /** One request, no redirect followed; cookies sent and kept (paths ignored: each test origin is ours alone). */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    this.visited.push(url);
    const jar = this.jar(url);
    const headers: Record<string, string> = { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      const gone = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()),
      );
      if (gone || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  /**
   * Follows redirects from `url`, submitting the provider's pages on the way: the sign-in form with `login`, the
   * consent form (or its Cancel link when `consent` is 'cancel'). Stops at the first answer that is neither a
   * redirect nor a provider page, or at `stopAt` (a URL prefix) without requesting it.
   */
  async walk(
    url: string,
    { login, consent = 'accept', stopAt }: { login: string; consent?: 'accept' | 'cancel'; stopAt?: string },
  ): Promise<{ url: string; response: Response | null }> {
    let next = url;
    for (let hop = 0; hop < 20; hop++) {
      if (stopAt && next.startsWith(stopAt)) return { url: next, response: null };
      const response = await this.request(next);
      const location = response.headers.get('location');
      if (location) {
        next = new URL(location, next).href;
        continue;
      }
      const page = response.headers.get('content-type')?.includes('text/html') ? await response.text() : '';
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
      if (!action || !prompt) return { url: next, response };
      const submit = new URL(action.replace(/&amp;/g, '&'), next).href;
      if (prompt === 'consent' && consent === 'cancel') {
        const cancel = /<a href="([^"]+)">\[ Cancel \]<\/a>/.exec(page)?.[1];
        next = new URL(cancel!.replace(/&amp;/g, '&'), next).href;
        continue;
      }
      const form: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
      const answer = await this.request(submit, { method: 'POST', form });
      next = new URL(answer.headers.get('location')!, submit).href;
    }
    throw new Error(`more than 20 hops from ${url}: ${this.visited.slice(-5).join(' → ')}`);
  }
}
