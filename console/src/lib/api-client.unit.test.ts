import { afterEach, describe, expect, it, vi } from 'vitest';
import { agentListView, statsView } from '@pf/events';
import { api, ApiError, ContractError } from './api-client';

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

  it('keeps the "{status}: {body}" wording for a non-OK answer', async () => {
    answer(404, '{"message":"Conversation 9 not found"}');
    const failure = api.get('/api/stats', statsView);
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toThrow('404: {"message":"Conversation 9 not found"}');
  });
});
