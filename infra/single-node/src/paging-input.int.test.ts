import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, CreatedApiTokenView } from '@pf/events';
import { ApiClient } from './testing/api-client';
import { readFeedPage } from './testing/event-feed';
import { testSingleNode } from './testing/single-node';

const cursorOf = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');

/**
 * What a client can put in a paged list's query or the event feed's position, over HTTP (events/src/paging.ts,
 * events/src/position.ts): every bad cursor, search or position is a 400 naming the problem, never a 500 from
 * PostgreSQL refusing it.
 */
describe('bad cursors, searches and feed positions', () => {
  const node = testSingleNode();
  let alice: ApiClient;

  beforeAll(async () => {
    alice = await ApiClient.signIn(node.server.url);
    expect((await alice.post('/api/seed-demo')).status).toBe(201);
  });

  const refused = async (path: string, why: RegExp) => {
    const answer = await alice.get<ApiError>(path);
    expect({ path, status: answer.status }).toEqual({ path, status: 400 });
    expect(answer.body.message).toMatch(why);
  };

  it('refuses a search with a NUL on every paged list, naming q', async () => {
    for (const list of ['agents', 'conversations', 'deals', 'documents', 'leads']) {
      await refused(`/api/${list}/page?q=${encodeURIComponent('Harbour\u0000')}`, /^q: .*NUL/);
      await refused(`/api/${list}/page?q=%00`, /^q: .*NUL/);
      expect((await alice.get(`/api/${list}/page?q=Harbour`)).status).toBe(200);
    }
  });

  it('refuses cursors whose key PostgreSQL could not compare, naming what is wrong', async () => {
    const bad: Record<string, unknown[][]> = {
      agents: [[1e300], [-1e300], [1.5], ['7'], [2 ** 63]],
      conversations: [
        ['2026-02-30T10:00:00.000000Z', 1],
        ['0000-01-01T00:00:00.000000Z', 1],
        ['2026-01-01T24:00:00.000000Z', 1],
        ['yesterday', 1],
        ['2026-01-01T00:00:00.000000Z', 1e300],
        ['2026-01-01T00:00:00.000000Z\u0000', 1],
      ],
      deals: [
        ['2026-01-01T00:00:00.000Z\u0000', 'x'],
        ['2026-01-01', 'a\u0000b'],
        ['\ud800', 'x'],
        [1, 'x'],
      ],
      documents: [['2026-01-01T00:00:00.000Z', 'a\u0000']],
      matches: [['2026-01-01T00:00:00.000Z\u0000', 'x']],
      leads: [
        [1e300, 'x'],
        [-1e300, 'x'],
        [3, 'x\u0000'],
      ],
    };
    for (const [list, keys] of Object.entries(bad)) {
      for (const key of keys)
        await refused(`/api/${list}/page?cursor=${cursorOf(key)}`, /^cursor: cursor must be a cursor from a previous page/);
    }
    await refused(`/api/agents/page?cursor=${cursorOf([1e300])}`, /id is not a whole number in range/);
    await refused(`/api/conversations/page?cursor=${cursorOf(['2026-02-30T10:00:00.000000Z', 1])}`, /time is not a real date/);
    await refused(`/api/deals/page?cursor=${cursorOf(['x', 'a\u0000b'])}`, /NUL/);
    await refused(`/api/agents/page?cursor=bm90LWEta2V5`, /^cursor: /);
  });

  it('still pages with the cursors it gave', async () => {
    for (const list of ['agents', 'conversations', 'deals', 'leads', 'matches']) {
      const first = await alice.get<{ nextCursor: string | null; items: unknown[] }>(`/api/${list}/page?limit=1`);
      expect(first.status).toBe(200);
      if (first.body.nextCursor === null) continue;
      const second = await alice.get<{ items: unknown[] }>(`/api/${list}/page?limit=1&cursor=${first.body.nextCursor}`);
      expect({ list, status: second.status }).toEqual({ list, status: 200 });
      expect(second.body.items).toHaveLength(1);
    }
  });

  it('refuses a feed position beyond any log with a 400, and reads from a real one', async () => {
    const created = await alice.post<CreatedApiTokenView>('/api/auth/tokens', { name: 'Positions job', scopes: ['events:read'] });
    expect(created.status).toBe(201);
    const { token } = created.body;
    for (const after of ['99999999999999999999:0', '18446744073709551616:0', '1:9223372036854775808']) {
      const answer = await readFeedPage(node.server.url, token, `after=${after}`);
      expect({ after, status: answer.status }).toEqual({ after, status: 400 });
      expect((JSON.parse(answer.text) as ApiError).message).toMatch(/^after: A position's first number is at most/);
    }
    const all = await readFeedPage(node.server.url, token, 'limit=3');
    expect(all.status).toBe(200);
    expect(all.events).toHaveLength(3);
    const resumed = await readFeedPage(node.server.url, token, `after=${all.events[0]!.position}&limit=2`);
    expect(resumed.events.map((event) => event.id)).toEqual(all.events.slice(1).map((event) => event.id));
    // The largest position there can be is a place in the log (after everything): nothing yet, not an error.
    expect((await readFeedPage(node.server.url, token, 'after=18446744073709551615:9223372036854775807')).status).toBe(200);
  });
});
