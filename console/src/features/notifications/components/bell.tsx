import { Icon } from '@blueprintjs/core';
import { Link } from 'wouter';
import { usePreferences } from '../../../lib/preferences';
import { useUnreadCount } from '../api/notifications';

/**
 * The dashboard's bell with its red dot, here carrying the unread count (live through views_changed).
 * With in-app notifications off (Settings → Preferences) it shows no count and asks for none: a plain link.
 */
export function NotificationBell() {
  const preferences = usePreferences();
  const inApp = preferences.data?.notifications.pushNotifications ?? false;
  const count = useUnreadCount(inApp);
  const unread = inApp ? (count.data?.unread ?? 0) : 0;
  return (
    <Link
      href="/notifications"
      className="pf-bell"
      aria-label={unread > 0 ? `Notifications: ${unread} unread` : 'Notifications: none unread'}
      data-testid="bell"
    >
      <Icon icon="notifications" />
      {unread > 0 ? (
        <span className="pf-bell-count" data-testid="bell-count">
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </Link>
  );
}
