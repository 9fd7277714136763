import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';
import type { AgentView, ApiError } from '@pf/events';

/** Optimistic concurrency at the HTTP edge: ETag carries an aggregate's version, If-Match sets the expected one. */
describe('ETag and If-Match', () => {
  const node = testSingleNode();
  let alice: ApiClient;

  beforeAll(async () => {
    alice = await ApiClient.signIn(node.server.url);
  });

  const ifMatch = (tag: string) => ({ 'if-match': tag });

  it('gives an agent version 0 on creation, the same in a read of it, and a new one per change', async () => {
    const created = await alice.post<AgentView>('/api/agents', { name: 'Amelia Hart', type: 'borrower' });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('W/"0"');
    const id = created.body.id;

    const read = await alice.get(`/api/agents/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id, name: 'Amelia Hart', isActive: true });
    expect(read.headers.get('etag')).toBe('W/"0"');

    const paused = await alice.request('PUT', `/api/agents/${id}`, { isActive: false }, ifMatch('W/"0"'));
    expect(paused.status).toBe(200);
    expect(paused.headers.get('etag')).toBe('W/"1"');
    expect((await alice.get(`/api/agents/${id}`)).headers.get('etag')).toBe('W/"1"');

    // A second writer still holding version 0 is refused, and nothing changes.
    const stale = await alice.request<ApiError>('PUT', `/api/agents/${id}`, { name: 'Overwritten' }, ifMatch('W/"0"'));
    expect(stale.status).toBe(412);
    expect(stale.body.message).toBe(
      `If-Match names version 0 of agent-${id}, but it is now at version 1; fetch it again (its ETag has the current version) and retry`,
    );
    expect((await alice.get<AgentView>(`/api/agents/${id}`)).body.name).toBe('Amelia Hart');

    expect((await alice.request('DELETE', `/api/agents/${id}`, undefined, ifMatch('"0"'))).status).toBe(412);
    const deleted = await alice.request('DELETE', `/api/agents/${id}`, undefined, ifMatch('"1"'));
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('etag')).toBe('W/"2"');
  });

  it('decides as before without If-Match, and names the header and the rule when it is malformed', async () => {
    const { body } = await alice.post<AgentView>('/api/agents', { name: 'Oakfield Lending', type: 'lender' });
    const changed = await alice.put(`/api/agents/${body.id}`, { description: 'Buy to let' });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe('W/"1"');
    const malformed = await alice.request('PUT', `/api/agents/${body.id}`, { isActive: false }, ifMatch('v1'));
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'if-match: If-Match must be an ETag this API gave, such as W/"3"' });
    expect((await alice.request('PUT', '/api/agents/999999', { isActive: false }, ifMatch('W/"0"'))).status).toBe(412);
  });

  it('carries a conversation version on its read and its commands; a stale If-Match is 412', async () => {
    const seeded = await alice.post('/api/seed-demo');
    expect(seeded.status).toBe(201);
    const [conversation] = (await alice.get('/api/conversations')).body as { id: number }[];
    const read = await alice.get(`/api/conversations/${conversation!.id}`);
    const tag = read.headers.get('etag')!;
    expect(tag).toMatch(/^W\/"\d+"$/);

    const manual = await alice.request('PATCH', `/api/conversations/${conversation!.id}`, { isManualMode: true }, ifMatch(tag));
    expect(manual.status).toBe(200);
    const next = manual.headers.get('etag')!;
    expect(next).not.toBe(tag);
    expect((await alice.get(`/api/conversations/${conversation!.id}`)).headers.get('etag')).toBe(next);

    const late = await alice.request(
      'POST',
      `/api/conversations/${conversation!.id}/messages`,
      { content: 'We can do 4.1%' },
      ifMatch(tag),
    );
    expect(late.status).toBe(412);
    const sent = await alice.request(
      'POST',
      `/api/conversations/${conversation!.id}/messages`,
      { content: 'We can do 4.1%' },
      ifMatch(next),
    );
    expect(sent.status).toBe(201);
    expect(sent.headers.get('etag')).not.toBe(next);
  });
});
