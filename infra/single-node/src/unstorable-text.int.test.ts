import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './testing/api-client';
import { testSingleNode } from './testing/single-node';
import type { ApiError } from '@pf/events';

/** A NUL in any text field gets a 400 naming it (PostgreSQL cannot store it), over HTTP. */
describe('text PostgreSQL cannot store', () => {
  const node = testSingleNode();
  let alice: ApiClient;

  beforeAll(async () => {
    alice = await ApiClient.signIn(node.server.url);
  });

  it('is refused with a 400 naming the field, and nothing is stored', async () => {
    const name = await alice.post<ApiError>('/api/agents', { name: 'Amelia\u0000Hart', type: 'borrower' });
    expect(name.status).toBe(400);
    expect(name.body.message).toMatch(/^name: .*NUL/);
    const criterion = await alice.post<ApiError>('/api/agents', {
      name: 'Amelia Hart',
      type: 'borrower',
      criteria: { propertyValueMin: '£250\u0000k' },
    });
    expect(criterion.status).toBe(400);
    expect(criterion.body.message).toMatch(/propertyValueMin.*NUL/);
    const surrogate = await alice.post<ApiError>('/api/agents', { name: 'Amelia \ud800Hart', type: 'borrower' });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.message).toMatch(/^name: .*unpaired surrogate/);
    const profile = await alice.put<ApiError>('/api/auth/profile', { firstName: 'Ada\u0000', lastName: 'Lovelace' });
    expect(profile.status).toBe(400);
    expect(profile.body.message).toMatch(/firstName.*NUL/);
    expect((await alice.get('/api/agents')).body).toEqual([]);
  });
});
