import type { ReadModel } from '../../projection-kit/read-model';
import { projectNotifications } from './projection';
import { notificationsMigrations } from './schema';

/** Per firm: the events that matter to it (derive.ts), as the preferences kept under its id allow, and which of them each member has read. */
export const notificationsReadModel: ReadModel = {
  name: 'notifications',
  tables: ['rm_notifications', 'rm_notification_reads', 'rm_notification_preferences', 'rm_notification_subjects'],
  migrations: notificationsMigrations,
  reads: ['agents', 'conversations'],
  project: projectNotifications,
};
