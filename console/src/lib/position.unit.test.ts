import { beforeEach, describe, expect, it } from 'vitest';
import { latestPosition, notePosition, resetPosition, takeView } from './position';

describe('the position of each view in the cache', () => {
  beforeEach(() => resetPosition());

  it('takes a view from the same or a later position, never from an earlier one', () => {
    expect(takeView('conversation:7', '100:4')).toBe(true);
    expect(takeView('conversation:7', '100:4')).toBe(true);
    expect(takeView('conversation:7', '100:2')).toBe(false);
    expect(takeView('conversation:7', '99:9')).toBe(false);
    expect(takeView('conversation:7', '101:0')).toBe(true);
    expect(takeView('conversation:7', '100:9')).toBe(false);
  });

  it('keeps each entity apart', () => {
    expect(takeView('conversation:7', '200:1')).toBe(true);
    expect(takeView('conversation:8', '100:1')).toBe(true);
  });

  it('takes a view without a position only where no positioned view has been taken', () => {
    expect(takeView('conversation:7', null)).toBe(true);
    expect(takeView('conversation:7', '100:1')).toBe(true);
    expect(takeView('conversation:7', null)).toBe(false);
    expect(takeView('conversation:7', 'not a position')).toBe(false);
  });

  it('forgets everything on reset (signing out)', () => {
    notePosition('300:1');
    takeView('conversation:7', '300:1');
    resetPosition();
    expect(latestPosition()).toBeNull();
    expect(takeView('conversation:7', '1:1')).toBe(true);
  });
});
