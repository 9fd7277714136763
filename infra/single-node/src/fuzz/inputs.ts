import fc from 'fast-check';

/**
 * Hostile inputs for the fuzzer: text PostgreSQL cannot store, control characters, huge and odd numbers,
 * deep nesting, wrong content types. Structured bodies mix valid values with hostile ones, so that most
 * requests get past the first check and reach the deciders, the event store and the projections.
 */
const nasty = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDC00x',
  'x\uDBFF',
  '\uDFFF\uD800',
  '\u0001\u0002\u001f',
  '\u007f',
  '\u2028\u2029',
  '\uFEFF',
  '\uFFFF',
  '😀',
  '\u202E',
  'Invoice\u202Efdp.exe',
  '\u2066',
  '\u2069',
  '\u200B',
  '\u061C',
  '\u0085',
  '%00',
  "'; drop table events; --",
  '<script>alert(1)</script>',
  '\\',
  '"',
  '{{7*7}}',
  '__proto__',
  'constructor',
  ' ',
  '',
  '1e400',
  'NaN',
  'null',
);
export const hostileString = fc.oneof(
  nasty,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 20 }), nasty, fc.string({ maxLength: 20 })).map(([a, b, c]) => a + b + c),
  fc.nat({ max: 9000 }).map((n) => 'x'.repeat(n)),
);
export const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 53, 2 ** 63, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-320),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor')), leaf, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.nat({ max: 3000 }).map((depth) => nest(depth)) },
);

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const criteriaKeys = ['propertyValueMin', 'propertyValueMax', 'interestRateMin', 'interestRateMax', 'loanTermMin', 'loanTermMax'];
/** Valid values of the fields commands take; a field is valid, hostile or absent. */
const VALID: Record<string, fc.Arbitrary<unknown>> = {
  name: fc.constantFrom('Fuzz Borrower', 'Wessex Bank', 'Ada'),
  type: fc.constantFrom('borrower', 'broker', 'lender'),
  description: fc.constantFrom('', 'A first-time buyer'),
  criteria: fc.record(Object.fromEntries(criteriaKeys.map((key) => [key, fc.constantFrom('£250k', '4.5%', '25 years', '')])), {
    requiredKeys: [],
  }),
  strategy: fc.constantFrom('boulware', 'conceder', 'linear'),
  isActive: fc.boolean(),
  isManualMode: fc.boolean(),
  content: fc.constantFrom('we can do 4.1% over 25 years', 'Hello', 'x'.repeat(4001)),
  fromAgentId: fc.nat({ max: 50 }),
  toAgentId: fc.nat({ max: 50 }),
  conversationId: fc.nat({ max: 50 }),
  isAutomated: fc.boolean(),
  enabled: fc.boolean(),
};

const field = (valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 5, arbitrary: valid }, { weight: 2, arbitrary: hostileValue }, { weight: 1, arbitrary: fc.constant(undefined) });

/** An object with the fields of commands, each valid, hostile or missing, plus a stray key now and then. */
export const structuredBody = fc
  .tuple(
    fc.record(Object.fromEntries(Object.entries(VALID).map(([key, valid]) => [key, field(valid)])), { requiredKeys: [] }),
    fc.record({ criteria: fc.dictionary(fc.constantFrom(...criteriaKeys), hostileValue, { maxKeys: 2 }) }, { requiredKeys: [] }),
    fc.dictionary(hostileString, hostileValue, { maxKeys: 2 }),
  )
  .map(([known, criteria, stray]) => ({
    ...stray,
    ...known,
    ...(criteria.criteria && Object.keys(criteria.criteria).length ? criteria : {}),
  }));

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'text/html',
  '*/*',
  '',
];
const rawJsonish = fc.oneof(
  fc.nat({ max: 30_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.nat({ max: 6_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
  fc.constantFrom(
    '1e999999',
    '-1e400',
    '123456789012345678901234567890',
    '{"name": 1e400, "type": "lender"}',
    '{"name":"a\\u0000b","type":"lender"}',
    '{"name":"\\ud800","type":"lender"}',
    '{"content":"\\udc00"}',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '',
    ' ',
    'null',
    'true',
    '"text"',
    '[]',
    '{',
    '{"a":1,}',
    '\u0000',
    '{"name":"\u0000"}',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.nat({ max: 40 }).map((n) => `{"name":"${'é'.repeat(n * 1000)}","type":"lender"}`),
);
export interface RawBody {
  readonly contentType: string;
  readonly payload: string | Buffer;
}
export const rawBody: fc.Arbitrary<RawBody> = fc.record({
  contentType: fc.constantFrom(...CONTENT_TYPES),
  payload: fc.oneof(
    { weight: 5, arbitrary: rawJsonish },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x22, 0x7d])) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(70 * 1024)) },
  ),
});

/** A path parameter: a real id, an odd number, or hostile text (percent-encoded as a browser would). */
export const pathParam = (realIds: readonly number[]) =>
  fc.oneof(
    { weight: 3, arbitrary: realIds.length ? fc.constantFrom(...realIds.map(String)) : fc.constant('1') },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{24}$/) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1.5',
        '1e3',
        '999999999999999',
        '9999999999999999999999',
        '2147483648',
        'NaN',
        'null',
        '%00',
        '%ED%A0%80',
        '%C3%28',
        '..%2F..%2Fetc',
      ),
    },
    { weight: 2, arbitrary: hostileString.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, 'x'))) },
  );

export const queryString = fc.oneof(
  { weight: 4, arbitrary: fc.constant('') },
  {
    weight: 1,
    arbitrary: fc
      .dictionary(fc.constantFrom('days', 'limit', 'after', 'x'), hostileString, { maxKeys: 3 })
      .map((q) => '?' + new URLSearchParams(q).toString()),
  },
  { weight: 1, arbitrary: fc.constantFrom('?days=1e400', '?days=-1', '?days=99999999999', '?%00=%00', '?a[b][c]=1', '?days=30&days=1') },
);

/** Header values must be Latin-1 without line breaks or NUL to be sent at all. */
export const headerValue = fc.oneof(
  fc
    .string({ unit: 'binary-ascii', maxLength: 60 })
    .map((s) => [...s].filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f).join('')),
  fc.constantFrom('', ' ', 'a'.repeat(300), '1:1', '99999999999999999999:99999999999999999999', '-1:0', 'x:y', 'é'),
);

/** One socket frame: a message of a known or unknown type with valid or hostile fields, or not JSON at all. */
export const socketFrame = (realIds: readonly number[], position: string) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record(
          {
            type: fc.oneof(
              { weight: 6, arbitrary: fc.constantFrom('send_message', 'manual_override', 'subscribe', 'unsubscribe', 'resume') },
              { weight: 1, arbitrary: hostileValue },
            ),
            requestId: field(fc.uuid()),
            conversationId: field(realIds.length ? fc.constantFrom(...realIds) : fc.constant(1)),
            content: field(VALID.content!),
            fromAgentId: field(VALID.fromAgentId!),
            enabled: field(fc.boolean()),
            afterPosition: field(fc.constantFrom(position, '0:0')),
          },
          { requiredKeys: [] },
        )
        .map((message) => ({ binary: false, data: JSON.stringify(message) })),
    },
    { weight: 1, arbitrary: rawJsonish.filter((s) => Buffer.byteLength(s) < 60_000).map((data) => ({ binary: false, data })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 100 }).map((bytes) => ({ binary: true, data: Buffer.from(bytes) })) },
  );
