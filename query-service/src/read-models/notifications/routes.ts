import { errorAnswers, notificationPreferencesView, notificationsView, readHeaders, SIGNED_IN_ERRORS, unreadCountView } from '@pf/events';
import { AccountStore, requireUser, sessionViewer, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { listNotifications, unreadCount } from './queries';

const READ_ERRORS = [...SIGNED_IN_ERRORS, 503] as const;

export const notificationReadRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool }) => {
  app.get(
    '/api/notifications',
    {
      schema: {
        summary: "Your firm's notifications, newest first, each read or not by you, with the four summary figures",
        headers: readHeaders,
        response: { 200: notificationsView, ...errorAnswers(...READ_ERRORS) },
      },
    },
    async (request) => listNotifications(pool, sessionViewer(request)),
  );
  app.get(
    '/api/notifications/unread-count',
    {
      schema: {
        summary: "How many of your firm's notifications you have not read (the bell)",
        headers: readHeaders,
        response: { 200: unreadCountView, ...errorAnswers(...READ_ERRORS) },
      },
    },
    async (request) => ({ unread: await unreadCount(pool, sessionViewer(request)) }),
  );
  app.get(
    '/api/notifications/preferences',
    {
      schema: {
        summary: 'Which notification kinds you receive (the same record as Settings → Preferences)',
        headers: readHeaders,
        response: { 200: notificationPreferencesView, ...errorAnswers(...READ_ERRORS) },
      },
    },
    // The account's own record, which every save updates with its events: the two screens cannot disagree.
    async (request) => (await new AccountStore(pool).preferences(requireUser(request).id)).notifications,
  );
};
