import type { IconName } from '@blueprintjs/core';

/** Shared navigation: ten entries, the same for every role. */
export const NAV_ITEMS: { href: string; label: string; icon: IconName }[] = [
  { href: '/dashboard', label: 'Dashboard', icon: 'dashboard' },
  { href: '/agents', label: 'My Agents', icon: 'predictive-analysis' },
  { href: '/conversations', label: 'Conversations', icon: 'chat' },
  { href: '/deals', label: 'Deals', icon: 'bank-account' },
  { href: '/documents', label: 'Documents', icon: 'document' },
  { href: '/matching', label: 'Matching & Leads', icon: 'exchange' },
  { href: '/analytics', label: 'Analytics', icon: 'timeline-line-chart' },
  { href: '/market', label: 'Market Intelligence', icon: 'trending-up' },
  { href: '/notifications', label: 'Notifications', icon: 'notifications' },
  { href: '/settings', label: 'Settings', icon: 'cog' },
];

/** For the installation's administrators only (CurrentUserView.isPlatformAdmin): the platform's health, every firm's. */
export const SYSTEM_NAV_ITEM: { href: string; label: string; icon: IconName } = { href: '/system', label: 'System', icon: 'pulse' };

/** Highlighted when the current path equals the href or starts with it. */
export function isActive(path: string, href: string): boolean {
  return path === href || path.startsWith(href);
}
