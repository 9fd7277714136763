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
import type { FastifyPluginAsyncZod, ServiceContext } from '@pf/infra';
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
  const { store } = context;
  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        summary: 'Mark one of your notifications as read',
        params: notificationIdParams,
        response: { 200: notificationReadAnswer, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      // Another person's notification id changes nothing: the read model applies a read to the reader's own rows only.
      const handled = await handleCommand(store, streams.user(user.id), notificationDecider, { type: 'MarkNotificationRead', userId: user.id, notificationId: request.params.id }, metadata);
      return withPosition(reply, handled.position).send({ id: request.params.id });
    },
  );
  app.post(
    '/api/notifications/read-all',
    { schema: { summary: 'Mark all your notifications as read', response: { 200: allNotificationsReadAnswer, ...errorAnswers(...WRITE_ERRORS) } } },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const handled = await handleCommand(store, streams.user(user.id), notificationDecider, { type: 'MarkAllNotificationsRead', userId: user.id }, metadata);
      return withPosition(reply, handled.position).send({ ok: true as const });
    },
  );
  app.put(
    '/api/notifications/preferences',
    {
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
