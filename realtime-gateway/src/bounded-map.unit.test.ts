import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map';

describe('the gateway index’s bounded map', () => {
  it('lets the least recently used go first, keeps what it is told to keep, and lets nothing go while held', () => {
    const followed = new Set([1]);
    const map = new BoundedMap<number, string>(3, (key) => followed.has(key));
    for (const key of [1, 2, 3]) map.set(key, `conversation ${key}`);
    map.get(2);
    map.set(4, 'conversation 4');
    // 1 is followed and stays; 3 was used least lately.
    expect([...map.keys()].sort()).toEqual([1, 2, 4]);

    const release = map.hold();
    for (const key of [5, 6, 7]) map.set(key, `conversation ${key}`);
    expect(map.size).toBe(6);
    release();
    expect([...map.keys()].sort()).toEqual([1, 6, 7]);

    // More followed than the bound: all of them stay.
    for (const key of [6, 7, 8, 9]) followed.add(key);
    map.set(8, 'conversation 8');
    map.set(9, 'conversation 9');
    expect([...map.keys()].sort()).toEqual([1, 6, 7, 8, 9]);
  });
});
