import { describe, expect, it } from 'vitest';
import { screenOf } from './screens';

describe('screenOf', () => {
  it('names the screen the router shows for a path, the first pattern that matches', () => {
    expect(screenOf('/dashboard')).toBe('dashboard');
    expect(screenOf('/conversations')).toBe('conversations');
    expect(screenOf('/conversations/7')).toBe('conversationDetail');
    expect(screenOf('/conversations/7/history')).toBe('conversationHistory');
    expect(screenOf('/join/3f1c')).toBe('join');
    expect(screenOf('/settings')).toBe('settings');
  });

  it('names none for a path no screen has (the 404 page)', () => {
    expect(screenOf('/join')).toBeNull();
    expect(screenOf('/agents/7')).toBeNull();
    expect(screenOf('/conversations/7/history/more')).toBeNull();
  });
});
