import { describe, expect, it } from 'vitest';
import { SIGNED_IN, screenOf } from './screens';

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

describe('SIGNED_IN', () => {
  it('takes every path under a screen section to the signed-in shell, and nothing else', () => {
    const sections = ['dashboard', 'agents', 'conversations', 'deals', 'documents', 'matching'];
    for (const section of [...sections, 'analytics', 'market', 'notifications', 'settings', 'join']) {
      expect(SIGNED_IN.test(`/${section}`)).toBe(true);
      expect(SIGNED_IN.test(`/${section}/7/more`)).toBe(true);
    }
    for (const path of ['/', '/auth', '/nowhere', '/agentsx', '/dashboard-old']) expect(SIGNED_IN.test(path)).toBe(false);
  });
});
