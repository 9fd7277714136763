import {
  allNotificationsReadAnswer,
  errorAnswers,
  notificationIdParams,
  notificationPreferences,
  notificationPreferencesView,
  notificationReadAnswer,
  SIGNED_IN_ERRORS,
  streams,
} from '@pf/events';
import { NotFound, sessionViewer, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { savePreferences } from '../identity/preferences';
import { notificationDecider } from './notifications';

const WRITE_ERRORS = [...SIGNED_IN_ERRORS, 409] as const;

/**
 * Mark as read and Mark All Read, recorded as events on the person's stream, and the notification kinds they
 * want (saved exactly as Settings → Preferences saves them).
 */
export const notificationRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, context) => {
  const { store, pool } = context;
  app.post(
    '/api/notifications/:id/read',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: "Mark one of your firm's notifications as read (for the whole firm)",
        params: notificationIdParams,
        response: { 200: notificationReadAnswer, ...errorAnswers(...WRITE_ERRORS, 404) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      // Only a notification of the caller's firm: another firm's id (or one that does not exist) is 404 and appends
      // nothing. A notification reaches a firm only through this read model, so one its members can see is in it.
      const { firmId } = sessionViewer(request);
      const { rowCount } = await pool.query('select 1 from rm_notifications where id = $1 and firm_id = $2', [request.params.id, firmId]);
      if (!rowCount) throw new NotFound(`Notification ${request.params.id} not found`);
      const handled = await handleCommand(
        store,
        streams.user(user.id),
        notificationDecider,
        { type: 'MarkNotificationRead', userId: user.id, firmId, notificationId: request.params.id },
        metadata,
      );
      return withPosition(reply, handled.position).send({ id: request.params.id });
    },
  );
  app.post(
    '/api/notifications/read-all',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: "Mark all your firm's notifications as read (for the whole firm)",
        response: { 200: allNotificationsReadAnswer, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const handled = await handleCommand(
        store,
        streams.user(user.id),
        notificationDecider,
        { type: 'MarkAllNotificationsRead', userId: user.id, firmId: sessionViewer(request).firmId },
        metadata,
      );
      return withPosition(reply, handled.position).send({ ok: true as const });
    },
  );
  app.put(
    '/api/notifications/preferences',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Choose which notification kinds you receive (a kind switched off creates nothing from then on)',
        body: notificationPreferences,
        response: { 200: notificationPreferencesView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      // The same save as Settings → Preferences: one record of a person's preferences, read by both screens.
      const { handled, saved } = await savePreferences(context, user.id, metadata, { notifications: request.body }, '');
      return withPosition(reply, handled.position).send(saved.notifications);
    },
  );
};
