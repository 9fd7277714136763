import { z } from 'zod';
import { notificationPreferences } from './user';

/** Notification: type and priority. */
export const NOTIFICATION_TYPES = ['deal', 'agent', 'message', 'system'] as const;
export const notificationType = z.enum(NOTIFICATION_TYPES);
export type NotificationType = z.infer<typeof notificationType>;
export const NOTIFICATION_PRIORITIES = ['high', 'medium', 'low'] as const;
export const notificationPriority = z.enum(NOTIFICATION_PRIORITIES);
export type NotificationPriority = z.infer<typeof notificationPriority>;

/** A notification id: derived from the event it came from and the person, so a rebuild gives the same ids. */
export const NOTIFICATION_ID_PATTERN = /^[0-9a-f]{24}$/;
export const notificationIdParams = z.object({
  id: z.string().regex(NOTIFICATION_ID_PATTERN, {
    error: (issue) => `Notification id must be 24 hexadecimal characters, not "${String(issue.input).slice(0, 40)}"`,
  }),
});

export const notificationView = z.object({
  id: z.string(),
  type: notificationType,
  title: z.string(),
  message: z.string(),
  priority: notificationPriority,
  read: z.boolean(),
  createdAt: z.string(),
  /** Where it leads in the console (a conversation), if anywhere. */
  link: z.string().nullable(),
});
export type NotificationView = z.infer<typeof notificationView>;

/** The four summary cards. Today and This Week count notifications received since midnight and the last 7 days. */
export const notificationSummary = z.object({
  unread: z.number().int(),
  today: z.number().int(),
  thisWeek: z.number().int(),
  highPriority: z.number().int(),
});
export type NotificationSummary = z.infer<typeof notificationSummary>;

/** GET /api/notifications: the newest 200, and the summary over all of them. */
export const notificationsView = z.object({ notifications: z.array(notificationView), summary: notificationSummary });
export type NotificationsView = z.infer<typeof notificationsView>;

/** GET /api/notifications/unread-count: the bell. */
export const unreadCountView = z.object({ unread: z.number().int() });
export type UnreadCountView = z.infer<typeof unreadCountView>;

export const notificationPreferencesView = notificationPreferences;
export const notificationReadAnswer = z.object({ id: z.string() });
export const allNotificationsReadAnswer = z.object({ ok: z.literal(true) });
