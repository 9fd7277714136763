import { createElement, lazy, useState, type ComponentType } from 'react';
import { parse } from 'regexparam';
import { matchRoute } from 'wouter';

/**
 * A component in a chunk of its own, with the function that loads it. Rendered before its chunk has arrived it
 * suspends, as `lazy()` does; rendered after, it draws at once. That matters: React holds back what a Suspense
 * boundary reveals for up to 300 ms after it last showed a fallback, so a screen that suspends on a chunk already
 * loaded waits for nothing.
 */
export function inChunk<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | null = null;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(preload);
  function Screen(props: P) {
    // Chosen once per mount: switching from Lazy to the loaded component would mount the screen a second time.
    const [Component] = useState(() => loaded ?? Lazy);
    return createElement(Component, props);
  }
  return { preload, Screen };
}

/** The signed-in screens, each in a chunk of its own. */
export const screens = {
  dashboard: inChunk(() => import('./dashboard')),
  agents: inChunk(() => import('./agents')),
  conversations: inChunk(() => import('./conversations')),
  conversationDetail: inChunk(() => import('./conversation-detail')),
  conversationHistory: inChunk(() => import('./conversation-history')),
  analytics: inChunk(() => import('./analytics')),
  market: inChunk(() => import('./market')),
  notifications: inChunk(() => import('./notifications')),
  deals: inChunk(() => import('./deals')),
  documents: inChunk(() => import('./documents')),
  matching: inChunk(() => import('./matching')),
  settings: inChunk(() => import('./settings')),
  system: inChunk(() => import('./system')),
};

/**
 * Which screen a signed-in path shows: the first pattern that matches, in wouter's syntax. signed-in.tsx routes by
 * this table and `startSignedIn` (start-signed-in.ts) preloads by it, so a path is always preloaded as the router
 * will show it.
 */
export const routes: readonly { path: string; screen: keyof typeof screens }[] = [
  { path: '/dashboard', screen: 'dashboard' },
  { path: '/agents', screen: 'agents' },
  { path: '/conversations', screen: 'conversations' },
  { path: '/conversations/:id/history', screen: 'conversationHistory' },
  { path: '/conversations/:id?', screen: 'conversationDetail' },
  { path: '/settings', screen: 'settings' },
  { path: '/analytics', screen: 'analytics' },
  { path: '/market', screen: 'market' },
  { path: '/notifications', screen: 'notifications' },
  { path: '/deals', screen: 'deals' },
  { path: '/documents', screen: 'documents' },
  { path: '/matching', screen: 'matching' },
  { path: '/system', screen: 'system' },
];

/**
 * Paths the signed-in shell serves: those under the first segment of a path in `routes` (one there with no screen is
 * the 404 page inside the shell). Anything else that is not / or /auth is the 404 page (docs/behaviour/README.md).
 */
const sections = [...new Set(routes.map(({ path }) => path.replace(/^\/([^/]+).*$/, '$1')))];
export const SIGNED_IN = new RegExp(`^/(${sections.join('|')})(/.*)?$`);

/** The screen a signed-in path shows, matched as the router matches it (wouter's own pattern parser). */
export function screenOf(pathname: string): keyof typeof screens | null {
  return routes.find(({ path }) => matchRoute(parse, path, pathname)[0])?.screen ?? null;
}
