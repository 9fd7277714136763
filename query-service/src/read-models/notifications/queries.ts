import type pg from 'pg';
import {
  asViewer,
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
  type NotificationsView,
  type NotificationView,
  type ViewerOrUser,
} from '@pf/events';

interface NotificationRow {
  id: string;
  type: NotificationView['type'];
  title: string;
  message: string;
  priority: NotificationView['priority'];
  link: string | null;
  created_at: Date;
  read: boolean;
}

/** Whether the person ($2) has read the row `n`: reading is each person's (docs/decisions/firms-and-visibility.md). */
const READ = `exists (select 1 from rm_notification_reads r where r.notification_id = n.id and r.user_id = $2)`;

/**
 * The newest 200 of the viewer's firm's notifications (every member's), each read or not by the viewer, and the
 * four summary figures over all of them.
 */
export async function listNotifications(pool: pg.Pool, viewer: ViewerOrUser, now = new Date()): Promise<NotificationsView> {
  const { firmId, userId } = asViewer(viewer);
  const rows = await pool.query<NotificationRow>(
    `select id, type, title, message, priority, link, created_at, ${READ} as read from rm_notifications n
     where firm_id = $1 order by created_at desc, id limit 200`,
    [firmId, userId],
  );
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const summary = await pool.query<{ unread: number; today: number; this_week: number; high_priority: number }>(
    `select count(*) filter (where not ${READ})::int as unread,
            count(*) filter (where created_at >= $3)::int as today,
            count(*) filter (where created_at >= $4)::int as this_week,
            count(*) filter (where priority = 'high' and not ${READ})::int as high_priority
     from rm_notifications n where firm_id = $1`,
    [firmId, userId, today, new Date(now.getTime() - 7 * 86_400_000)],
  );
  const s = summary.rows[0]!;
  return {
    notifications: rows.rows.map((r) => ({
      id: r.id,
      type: r.type,
      title: r.title,
      message: r.message,
      priority: r.priority,
      read: r.read,
      createdAt: r.created_at.toISOString(),
      link: r.link,
    })),
    summary: { unread: s.unread, today: s.today, thisWeek: s.this_week, highPriority: s.high_priority },
  };
}

/** How many of the firm's notifications the viewer has not read (the bell). */
export async function unreadCount(pool: pg.Pool, viewer: ViewerOrUser): Promise<number> {
  const { firmId, userId } = asViewer(viewer);
  const rows = await pool.query<{ unread: number }>(
    `select count(*)::int as unread from rm_notifications n where firm_id = $1 and not ${READ}`,
    [firmId, userId],
  );
  return rows.rows[0]!.unread;
}

export async function notificationPreferencesOf(pool: pg.Pool, userId: string): Promise<NotificationPreferences> {
  const rows = await pool.query<{ preferences: NotificationPreferences }>(
    `select preferences from rm_notification_preferences where user_id = $1`,
    [userId],
  );
  return rows.rows[0]?.preferences ?? DEFAULT_NOTIFICATION_PREFERENCES;
}
