import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentListView, agentView, statsView } from '@pf/events';
import { z } from 'zod';
import { api, ApiError, ContractError, failureReason, inWords } from './api-client';

// The server is stood in for by a fetch that answers one fixed Response: what is under test is how the client
// reads an answer, which needs no network (the browser tests drive the real server).
function answer(status: number, body: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'application/json' } })),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the console API client parses answers with the contract', () => {
  const agent = {
    id: 3,
    name: 'Amelia Hart',
    type: 'borrower',
    description: '',
    criteria: null,
    isActive: true,
    strategy: null,
    products: null,
    needs: null,
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
  };

  it('returns the parsed answer when it matches the view', async () => {
    answer(200, JSON.stringify([agent]));
    expect(await api.get('/api/agents', agentListView)).toEqual([agent]);
  });

  it('says which answer and which field disagree with the contract', async () => {
    answer(200, JSON.stringify([{ ...agent, isActive: 'yes' }]));
    const failure = api.get('/api/agents', agentListView);
    await expect(failure).rejects.toBeInstanceOf(ContractError);
    await expect(failure).rejects.toThrow(
      'The answer to GET /api/agents is not what this console expects (0.isActive: Invalid input: expected boolean, received string); reload the page to get the current console',
    );
  });

  it('says so when an OK answer is not JSON at all', async () => {
    answer(200, '<html>proxy error</html>');
    await expect(api.get('/api/stats', statsView)).rejects.toThrow(
      'The answer to GET /api/stats is not what this console expects (it is not JSON)',
    );
  });

  it('says a refusal in the server’s words, never its raw JSON', async () => {
    answer(403, '{"message":"Your role is Auditor: auditors read everything of the firm but cannot create, change, take over or send"}');
    const failure = api.get('/api/stats', statsView);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow(
      /^Your role is Auditor: auditors read everything of the firm but cannot create, change, take over or send$/,
    );
  });

  it('says the status in words when the answer gives no message (no JSON, markup or an empty body shown)', async () => {
    answer(502, '<html><body>Bad gateway</body></html>');
    await expect(api.get('/api/stats', statsView)).rejects.toThrow(/^The server answered 502$/);
    answer(500, '{"error":"x"}');
    await expect(api.get('/api/stats', statsView)).rejects.toThrow(/^The server answered 500$/);
    answer(503, 'Database unavailable, try again shortly');
    await expect(api.get('/api/stats', statsView)).rejects.toThrow(/^Database unavailable, try again shortly$/);
  });
});

describe('text shown to a person is in words', () => {
  it('takes the message out of raw JSON, with or without a status before it, and leaves other text alone', () => {
    expect(inWords('403: {"message":"Deal 9 not found"}')).toBe('Deal 9 not found');
    expect(inWords('{"message":"Conversation 9 not found"}')).toBe('Conversation 9 not found');
    expect(inWords('409: {"code":1}')).toBe('The server answered 409');
    expect(inWords('Failed to send message')).toBe('Failed to send message');
    expect(failureReason(new Error('{"message":"Not yours"}'))).toBe('Not yours');
  });
});

// docs/decisions/idempotency-keys.md: "Every write the console sends carries an Idempotency-Key header", and a
// retry of the same write (the client's own after a network failure, or the person's) carries the same key, so
// the server answers it with the first answer instead of acting twice. The browser test that holds the effect
// end to end is console/e2e/idempotent-writes.e2e.test.ts.
describe('the console API client sends one Idempotency-Key per intended write', () => {
  const sent: { method: string; key: string | null }[] = [];
  /** A fetch that fails on the network for the first `lost` calls, then answers each with `status`. */
  function server(lost: number, status = 200) {
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_path: string, init: RequestInit) => {
        const headers = new Headers(init.headers);
        sent.push({ method: init.method ?? 'GET', key: headers.get('idempotency-key') });
        if (calls++ < lost) throw new TypeError('Failed to fetch');
        return new Response(status === 200 ? '{}' : '{"message":"no"}', { status });
      }),
    );
  }
  const anything = z.unknown();
  const keys = () => sent.map((request) => request.key);

  afterEach(() => {
    sent.length = 0;
    vi.useRealTimers();
  });

  it('sends a key with every write and none with a read', async () => {
    server(0);
    await api.get('/api/stats', anything);
    await api.post('/api/agents', anything, { name: 'Harbour' });
    await api.put('/api/agents/1', anything, { name: 'Harbour' });
    await api.patch('/api/agents/1', anything, { isActive: false });
    await api.patchPositioned('/api/conversations/1/control', anything, { side: 'lender' });
    await api.delete('/api/agents/1', anything);
    await api.request('DELETE', '/api/auth/two-factor', anything, { code: '123456' });
    const form = new FormData();
    form.set('file', new File(['%PDF'], 'payslip.pdf', { type: 'application/pdf' }));
    await api.postForm('/api/documents', anything, form);
    expect(sent.map((request) => request.method)).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'PATCH', 'DELETE', 'DELETE', 'POST']);
    expect(sent[0]!.key).toBeNull();
    const writeKeys = keys().slice(1);
    for (const key of writeKeys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(writeKeys).size).toBe(writeKeys.length);
  });

  it('sends a write the network lost again with the same key, and returns its answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    server(2);
    const created = api.post('/api/agents', anything, { name: 'Harbour' });
    await vi.runAllTimersAsync();
    expect(await created).toEqual({});
    expect(sent).toHaveLength(3);
    expect(new Set(keys()).size).toBe(1);
  });

  it('keeps the key of a write left unanswered for the person’s retry of it, and uses a new key once answered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    server(3);
    const lost = api.post('/api/agents', agentView, { name: 'Quayside' });
    const settled = expect(lost).rejects.toThrow(/could not be reached.*trying again is safe: it will not be done twice/);
    await vi.runAllTimersAsync();
    await settled;
    const firstKey = sent[0]!.key;

    // A different request meanwhile is a different action.
    await api.post('/api/agents', anything, { name: 'Other' });
    expect(sent[3]!.key).not.toBe(firstKey);

    // The person presses Create again: the same request, the same key; then once answered, a new action.
    await api.post('/api/agents', anything, { name: 'Quayside' });
    await api.post('/api/agents', anything, { name: 'Quayside' });
    expect(sent[4]!.key).toBe(firstKey);
    expect(sent[5]!.key).not.toBe(firstKey);
  });

  it('sends a second press while the first is on its way as a second action', async () => {
    server(0);
    await Promise.all([api.post('/api/agents', anything, { name: 'Twice' }), api.post('/api/agents', anything, { name: 'Twice' })]);
    expect(sent[1]!.key).not.toBe(sent[0]!.key);
  });

  it('keeps the key after an answer a retry can get past (5xx, 409, 429), not after a refusal', async () => {
    server(0, 503);
    await expect(api.post('/api/agents', anything, { name: 'Mill' })).rejects.toBeInstanceOf(ApiError);
    await expect(api.post('/api/agents', anything, { name: 'Mill' })).rejects.toBeInstanceOf(ApiError);
    expect(sent[1]!.key).toBe(sent[0]!.key);
    server(0, 400);
    await expect(api.post('/api/agents', anything, { name: 'Mill' })).rejects.toBeInstanceOf(ApiError);
    await expect(api.post('/api/agents', anything, { name: 'Mill' })).rejects.toBeInstanceOf(ApiError);
    expect(sent[2]!.key).toBe(sent[0]!.key);
    expect(sent[3]!.key).not.toBe(sent[0]!.key);
  });
});
