import type pg from 'pg';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences, type NotificationsView, type NotificationView } from '@pf/events';

interface NotificationRow {
  id: string;
  type: NotificationView['type'];
  title: string;
  message: string;
  priority: NotificationView['priority'];
  link: string | null;
  created_at: Date;
  read_at: Date | null;
}

/** The newest 200 of a firm's notifications (every member's), and the four summary figures over all of them. */
export async function listNotifications(pool: pg.Pool, firmId: string, now = new Date()): Promise<NotificationsView> {
  const rows = await pool.query<NotificationRow>(
    `select id, type, title, message, priority, link, created_at, read_at from rm_notifications
     where firm_id = $1 order by created_at desc, id limit 200`,
    [firmId],
  );
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const summary = await pool.query<{ unread: number; today: number; this_week: number; high_priority: number }>(
    `select count(*) filter (where read_at is null)::int as unread,
            count(*) filter (where created_at >= $2)::int as today,
            count(*) filter (where created_at >= $3)::int as this_week,
            count(*) filter (where priority = 'high' and read_at is null)::int as high_priority
     from rm_notifications where firm_id = $1`,
    [firmId, today, new Date(now.getTime() - 7 * 86_400_000)],
  );
  const s = summary.rows[0]!;
  return {
    notifications: rows.rows.map((r) => ({
      id: r.id,
      type: r.type,
      title: r.title,
      message: r.message,
      priority: r.priority,
      read: r.read_at !== null,
      createdAt: r.created_at.toISOString(),
      link: r.link,
    })),
    summary: { unread: s.unread, today: s.today, thisWeek: s.this_week, highPriority: s.high_priority },
  };
}

export async function unreadCount(pool: pg.Pool, firmId: string): Promise<number> {
  const rows = await pool.query<{ unread: number }>(
    `select count(*)::int as unread from rm_notifications where firm_id = $1 and read_at is null`,
    [firmId],
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
