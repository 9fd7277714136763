import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { ReadModelProgress } from './progress';
import { ReadCache } from './read-cache';

describe('read cache', () => {
  // The pool is only used when waiting for a position, which these tests never do.
  const progress = () => new ReadModelProgress({} as pg.Pool, 'projection:read-models');

  it('answers from memory while the read models stand still, and reads again once the projector moves', async () => {
    const at = progress();
    const cache = new ReadCache(at);
    let reads = 0;
    const read = () => cache.read('alice', '/api/agents', async () => ++reads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    at.advance({ commit: 10n, prepare: 1n });
    expect(await read()).toBe(2);
    expect(await read()).toBe(2);
  });

  it('keeps users and URLs apart', async () => {
    const cache = new ReadCache(progress());
    await cache.read('alice', '/api/agents', async () => 'alice agents');
    expect(await cache.read('bob', '/api/agents', async () => 'bob agents')).toBe('bob agents');
    expect(await cache.read('alice', '/api/stats', async () => 'alice stats')).toBe('alice stats');
    expect(await cache.read('alice', '/api/agents', async () => 'again')).toBe('alice agents');
  });

  it('never keeps an answer under a position newer than the one it was read at', async () => {
    const at = progress();
    const cache = new ReadCache(at);
    // The projector moves while the read is in flight: the answer belongs to the older position only.
    await cache.read('alice', '/api/agents', async () => {
      at.advance({ commit: 20n, prepare: 1n });
      return 'read before the move';
    });
    expect(await cache.read('alice', '/api/agents', async () => 'read after the move')).toBe('read after the move');
  });

  it('lets go of every answer read at an older position once one at a newer position is read', async () => {
    const at = progress();
    const cache = new ReadCache(at);
    await cache.read('alice', '/api/agents', async () => 'alice agents');
    await cache.read('bob', '/api/conversations', async () => 'bob conversations');
    expect(cache.size).toBe(2);
    at.advance({ commit: 30n, prepare: 1n });
    await cache.read('alice', '/api/stats', async () => 'alice stats');
    expect(cache.size).toBe(1);
    expect(await cache.read('bob', '/api/conversations', async () => 'read again')).toBe('read again');
  });

  it('forgets every answer when the projector starts again from the stored checkpoint, even at the same position', async () => {
    const at = progress();
    at.advance({ commit: 40n, prepare: 1n });
    const cache = new ReadCache(at);
    expect(await cache.read('alice', '/api/agents', async () => 'before the database died')).toBe('before the database died');
    // The server came back without its last batches: the projector starts again behind, reads meanwhile are
    // not kept, and once it has applied them again the position is where it was, but the answer is read anew.
    at.restartAt({ commit: 30n, prepare: 1n });
    expect(await cache.read('alice', '/api/agents', async () => 'while refilling')).toBe('while refilling');
    at.advance({ commit: 40n, prepare: 1n });
    expect(await cache.read('alice', '/api/agents', async () => 'refilled')).toBe('refilled');
    expect(await cache.read('alice', '/api/agents', async () => 'again')).toBe('refilled');
  });

  it('does not keep an answer read while the projector started again', async () => {
    const at = progress();
    const cache = new ReadCache(at);
    await cache.read('alice', '/api/agents', async () => {
      at.restartAt({ commit: 0n, prepare: 0n });
      return 'read across the restart';
    });
    expect(await cache.read('alice', '/api/agents', async () => 'read after it')).toBe('read after it');
  });
});
