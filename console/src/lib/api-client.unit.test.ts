import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentListView, statsView } from '@pf/events';
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
