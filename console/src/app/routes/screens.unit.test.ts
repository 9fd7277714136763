import { describe, expect, it } from 'vitest';
import { SIGNED_IN, screenOf } from './screens';

describe('screenOf', () => {
  it('names the screen the router shows for a path, the first pattern that matches', () => {
    expect(screenOf('/dashboard')).toBe('dashboard');
    expect(screenOf('/conversations')).toBe('conversations');
    expect(screenOf('/conversations/7')).toBe('conversationDetail');
    expect(screenOf('/conversations/7/history')).toBe('conversationHistory');
    expect(screenOf('/settings')).toBe('settings');
  });

  it('names none for a path no screen has (the 404 page)', () => {
    expect(screenOf('/join/3f1c')).toBeNull();
    expect(screenOf('/agents/7')).toBeNull();
    expect(screenOf('/conversations/7/history/more')).toBeNull();
  });
});

describe('SIGNED_IN', () => {
  it('takes every path under a screen section to the signed-in shell, and nothing else', () => {
    const sections = ['dashboard', 'agents', 'conversations', 'deals', 'documents', 'matching'];
    for (const section of [...sections, 'analytics', 'market', 'notifications', 'settings', 'system']) {
      expect(SIGNED_IN.test(`/${section}`)).toBe(true);
      expect(SIGNED_IN.test(`/${section}/7/more`)).toBe(true);
    }
    // An invitation link is public (app/routes/join.tsx): a signed-out visitor reads it before signing in.
    for (const path of ['/', '/auth', '/sign-in', '/join/3f1c', '/nowhere', '/agentsx', '/dashboard-old'])
      expect(SIGNED_IN.test(path)).toBe(false);
  });
});
