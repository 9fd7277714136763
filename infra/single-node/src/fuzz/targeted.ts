import fc from 'fast-check';
import { invisibleControlMessage } from '@pf/events';
import { readInput, sendRead, type ReadInput } from './aimed-reads';
import { sendUpload, uploadInput, type UploadInput } from './aimed-uploads';
import { checkInWorkers } from './property';
import type { FuzzReport, FuzzTarget } from './report';

/**
 * Inputs aimed at three holes found by hand, each with the answer it must get (not only "no 5xx"):
 * - cross-site sign-out: GET /api/logout from anywhere answers the confirmation page (or home when signed out),
 *   a POST from another site 403; neither ends the session (checked after the run);
 * - notification ids that are not the caller's: 404, and nothing appended;
 * - invisible control characters (bidirectional overrides, zero-width space, C0/C1 controls) in names and
 *   addresses: 400 naming the field;
 * - cursors and searches of the paged lists, and positions of the event feed (aimed-reads.ts);
 * - uploads with an Idempotency-Key, sent again (aimed-uploads.ts).
 */
type TargetedInput =
  | { kind: 'cross-site logout'; method: 'GET' | 'POST'; origin: string | null; site: string | null }
  | { kind: 'foreign notification'; id: string }
  | { kind: 'control character'; field: FieldCase; value: string }
  | ReadInput
  | UploadInput;

interface FieldCase {
  readonly method: string;
  readonly path: string;
  readonly field: string;
  readonly label: string;
  readonly body: (value: string) => Record<string, unknown>;
}

const FIELDS: readonly FieldCase[] = [
  { method: 'POST', path: '/api/agents', field: 'name', label: 'Agent name', body: (name) => ({ name, type: 'borrower' }) },
  {
    method: 'PUT',
    path: '/api/auth/profile',
    field: 'firstName',
    label: 'First name',
    body: (firstName) => ({ firstName, lastName: 'Fuzz' }),
  },
  {
    method: 'PUT',
    path: '/api/auth/profile',
    field: 'lastName',
    label: 'Last name',
    body: (lastName) => ({ firstName: 'Fuzz', lastName }),
  },
  {
    method: 'PUT',
    path: '/api/auth/profile',
    field: 'company',
    label: 'Company',
    body: (company) => ({ firstName: 'Fuzz', lastName: 'Fuzz', company }),
  },
  {
    method: 'PUT',
    path: '/api/auth/profile',
    field: 'address',
    label: 'Address',
    body: (address) => ({ firstName: 'Fuzz', lastName: 'Fuzz', address }),
  },
];

const INVISIBLE = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
  '\u200B',
  '\u2060',
  '\u2061',
  '\u2062',
  '\u2063',
  '\u2064',
  '\uFEFF',
  '\u180E',
  '\u206A',
  '\u206F',
  '\uFFF9',
  '\uFFFB',
  '\u0001',
  '\u0007',
  '\u001B',
  '\t',
  '\n',
  '\r',
  '\u007F',
  '\u0080',
  '\u0085',
  '\u009F',
];

function targetedInput(): fc.Arbitrary<TargetedInput> {
  return fc.oneof(
    fc.record({
      kind: fc.constant('cross-site logout' as const),
      method: fc.constantFrom('GET' as const, 'POST' as const),
      origin: fc.constantFrom('https://evil.example', 'null', 'http://localhost.evil.example', null),
      site: fc.constantFrom('cross-site', 'same-site', 'none', null),
    }),
    fc.record({ kind: fc.constant('foreign notification' as const), id: fc.stringMatching(/^[0-9a-f]{24}$/) }),
    fc.record({
      kind: fc.constant('control character' as const),
      field: fc.constantFrom(...FIELDS),
      value: fc
        .tuple(
          fc.constantFrom('Ada', 'Invoice', '12 St James Square', ''),
          fc.constantFrom(...INVISIBLE),
          fc.constantFrom('', 'fdp.exe', 'Lovelace', ' Ltd'),
        )
        .map(([before, invisible, after]) => `${before}${invisible}${after}`),
    }),
    readInput(),
    readInput(),
    uploadInput(),
  );
}

export async function fuzzTargeted(target: FuzzTarget, report: FuzzReport, runs: number, seed: number, concurrency: number): Promise<void> {
  await checkInWorkers(report, targetedInput(), { runs, workers: concurrency, seed, label: 'targeted' }, async (input, counted) => {
    const problem = await sendTargeted(target, input);
    if (counted) {
      const tally = (report.targeted[input.kind] ??= { tried: 0, asExpected: 0 });
      tally.tried += 1;
      if (problem === null) tally.asExpected += 1;
    }
    return problem;
  });
  // However many cross-site sign-outs were tried, the fuzzing user is still signed in.
  const still = await fetch(`${target.url}/api/auth/user`, { headers: { cookie: target.cookie } });
  if (still.status !== 200)
    report.counterexamples.push(`targeted: the session ended after the cross-site sign-outs (GET /api/auth/user answered ${still.status})`);
}

async function sendTargeted(target: FuzzTarget, input: TargetedInput): Promise<string | null> {
  switch (input.kind) {
    case 'cross-site logout': {
      const headers: Record<string, string> = { cookie: target.cookie };
      if (input.origin) headers.origin = input.origin;
      if (input.site) headers['sec-fetch-site'] = input.site;
      // A POST without an Origin is not from a browser page: that one would sign out, so it is not a cross-site try.
      if (input.method === 'POST' && !input.origin) headers.origin = 'https://evil.example';
      const response = await fetch(`${target.url}/api/logout`, { method: input.method, headers, redirect: 'manual' });
      const text = await response.text();
      const expected = input.method === 'GET' ? 200 : 403;
      if (response.status !== expected)
        return `${input.method} /api/logout ${JSON.stringify(headers)} answered ${response.status} (expected ${expected}): ${text.slice(0, 200)}`;
      if (input.method === 'GET' && !text.includes('<form method="post" action="/api/logout"'))
        return 'GET /api/logout answered no confirmation form';
      if (response.headers.get('set-cookie')) return `${input.method} /api/logout from another site changed a cookie`;
      return null;
    }
    case 'foreign notification': {
      const response = await fetch(`${target.url}/api/notifications/${input.id}/read`, {
        method: 'POST',
        headers: { cookie: target.cookie, origin: target.url },
      });
      const text = await response.text();
      return response.status === 404
        ? null
        : `POST /api/notifications/${input.id}/read (not the caller's) answered ${response.status}: ${text.slice(0, 200)}`;
    }
    case 'control character': {
      const { method, path, field, label, body } = input.field;
      const response = await fetch(`${target.url}${path}`, {
        method,
        headers: { cookie: target.cookie, origin: target.url, 'content-type': 'application/json' },
        body: JSON.stringify(body(input.value)),
      });
      const text = await response.text();
      const message = (() => {
        try {
          return (JSON.parse(text) as { message?: string }).message ?? '';
        } catch {
          return '';
        }
      })();
      if (response.status === 400 && message.includes(`${field}: ${invisibleControlMessage(label)}`)) return null;
      return `${method} ${path} with ${field} ${JSON.stringify(input.value)} answered ${response.status} (expected 400 naming ${field}): ${text.slice(0, 200)}`;
    }
    case 'paging cursor':
    case 'paging search':
    case 'feed position':
      return sendRead(target, input);
    case 'idempotent upload':
      return sendUpload(target, input);
  }
}
