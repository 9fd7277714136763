import type { ReadModel } from '../read-model';
import { projectNotifications } from './projection';
import { notificationsMigrations } from './schema';

export { listNotifications, notificationPreferencesOf, unreadCount } from './queries';
export { notificationId } from './projection';

/** Per person: the events that matter to them (derive.ts), as their preferences allow, and which they have read. */
export const notificationsReadModel: ReadModel = {
  name: 'notifications',
  tables: ['rm_notifications', 'rm_notification_preferences', 'rm_notification_subjects'],
  migrations: notificationsMigrations,
  project: projectNotifications,
};
