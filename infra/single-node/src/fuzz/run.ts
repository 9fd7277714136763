import fc from 'fast-check';
import { headerValue, pathParam, queryString, rawBody, structuredBody, type RawBody } from './inputs';
import { checkInWorkers } from './property';
import { fuzzSocket } from './socket';
import { emptyFuzzReport, type FuzzReport, type FuzzRoute, type FuzzTarget } from './report';
import { fuzzTargeted } from './targeted';

const READ_METHODS = new Set(['GET', 'HEAD']);

interface HttpInput {
  route: FuzzRoute;
  params: string[];
  query: string;
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; raw: RawBody } | { kind: 'none' };
  withCookie: boolean;
  origin: 'own' | 'foreign' | 'none';
  extraHeaders: Record<string, string>;
}

function httpInput(target: FuzzTarget): fc.Arbitrary<HttpInput> {
  const ids = [...target.agentIds, ...target.conversationIds];
  return fc.record({
    route: fc.constantFrom(...target.routes),
    params: fc.array(pathParam(ids), { minLength: 3, maxLength: 3 }),
    query: queryString,
    body: fc.oneof(
      { weight: 6, arbitrary: structuredBody.map((value) => ({ kind: 'json' as const, value })) },
      { weight: 3, arbitrary: rawBody.map((raw) => ({ kind: 'raw' as const, raw })) },
      { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
    ),
    // Nine in ten with the session (drawn by fast-check, so a seed replays the same inputs).
    withCookie: fc.nat({ max: 9 }).map((n) => n < 9),
    origin: fc.constantFrom('own', 'own', 'own', 'foreign', 'none'),
    extraHeaders: fc.record(
      {
        'x-after-position': fc.oneof(fc.constant(target.position), headerValue),
        'idempotency-key': fc.oneof(fc.uuid(), headerValue),
        'x-correlation-id': headerValue,
        accept: fc.constantFrom('application/json', 'text/html', '*/*', 'image/png'),
      },
      { requiredKeys: [] },
    ),
  });
}

function pathOf(route: FuzzRoute, params: string[]): string {
  let index = 0;
  return route.url.replace(/:[A-Za-z_]+/g, () => params[index++ % params.length]!).replace(/\*$/, params[0]!);
}

export async function fuzz(
  target: FuzzTarget,
  options: { httpRuns: number; socketRuns: number; targetedRuns?: number; seed?: number; concurrency?: number },
): Promise<FuzzReport> {
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const report = emptyFuzzReport(seed, target.routes.length);
  const onCrash = (error: unknown) =>
    report.crashes.push(
      error instanceof Error ? `${error.name}: ${error.message} ${error.stack?.split('\n').slice(1, 6).join(' / ')}` : String(error),
    );
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  try {
    await fuzzHttp(target, report, options.httpRuns, seed, options.concurrency ?? 6);
    await fuzzSocket(target, report, options.socketRuns, seed);
    await fuzzTargeted(target, report, options.targetedRuns ?? 0, seed, options.concurrency ?? 6);
  } finally {
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  }
  return report;
}

async function fuzzHttp(target: FuzzTarget, report: FuzzReport, runs: number, seed: number, concurrency: number): Promise<void> {
  await checkInWorkers(report, httpInput(target), { runs, workers: concurrency, seed, label: 'HTTP' }, (input, counted) =>
    sendHttp(target, report, input, counted),
  );
}

/** Sends one input; null when the answer is acceptable, else what went wrong. `counted`: outside shrinking. */
async function sendHttp(target: FuzzTarget, report: FuzzReport, input: HttpInput, counted: boolean): Promise<string | null> {
  const method = input.route.method;
  const path = pathOf(input.route, input.params) + input.query;
  const headers: Record<string, string> = { ...input.extraHeaders };
  // Signing out (a POST from this origin, or from no page at all) would end the fuzzing user's session: that one
  // gets no cookie. A GET, or a POST from another site, may have it: neither signs anyone out.
  const signsOut = path.startsWith('/api/logout') && method !== 'GET' && input.origin !== 'foreign';
  if (input.withCookie && !signsOut) headers.cookie = target.cookie;
  if (input.origin === 'own') headers.origin = target.url;
  if (input.origin === 'foreign') headers.origin = 'https://evil.example';
  let body: string | Buffer | undefined;
  if (!READ_METHODS.has(method) && input.body.kind === 'json') {
    body = JSON.stringify(input.body.value);
    headers['content-type'] = 'application/json';
  } else if (!READ_METHODS.has(method) && input.body.kind === 'raw') {
    body = input.body.raw.payload;
    if (input.body.raw.contentType) headers['content-type'] = input.body.raw.contentType;
  }
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : new Uint8Array(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    // undici refuses some header values or URLs before sending; anything else is the server's doing.
    if (error instanceof TypeError && !/fetch failed/.test(error.message)) {
      if (counted) report.httpUnsendable += 1;
      return null;
    }
    const cause = String((error as Error).cause ?? error);
    if (counted) report.httpInputs += 1;
    if (/HeadersOverflow/.test(cause)) {
      if (counted) report.unreadable.push({ method, path: path.slice(0, 200), problem: cause });
      return null;
    }
    if (counted) report.serverErrors.push({ method, path, status: 0, body: cause, input: describe(input, body) });
    return `${method} ${path.slice(0, 200)}: no answer (${cause})`;
  }
  const text = await response.text();
  if (counted) {
    report.httpInputs += 1;
    const key = `${Math.floor(response.status / 100)}xx`;
    report.statusCounts[key] = (report.statusCounts[key] ?? 0) + 1;
  }
  if (response.status < 500) return null;
  if (counted) report.serverErrors.push({ method, path, status: response.status, body: text.slice(0, 300), input: describe(input, body) });
  return `${method} ${path.slice(0, 200)} answered ${response.status}: ${text.slice(0, 300)}`;
}

function describe(input: HttpInput, body: string | Buffer | undefined): string {
  const shown = body === undefined ? '' : (Buffer.isBuffer(body) ? body.toString('latin1') : body).slice(0, 300);
  return JSON.stringify({
    headers: input.extraHeaders,
    contentType: input.body.kind === 'raw' ? input.body.raw.contentType : 'json',
    body: shown,
  });
}
