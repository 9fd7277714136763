import { describe, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '@pf/events';
import { deciderSpec } from '../testing/decider-spec';
import { notificationDecider } from './notifications';

const spec = deciderSpec(notificationDecider);
const id = 'a'.repeat(24);

describe('notification commands', () => {
  it('records a read once (no way back to unread, so a repeat changes nothing)', () => {
    spec
      .given([])
      .when({ type: 'MarkNotificationRead', userId: 'u', firmId: 'u', notificationId: id })
      .then([{ type: 'NotificationRead', data: { userId: 'u', firmId: 'u', notificationId: id } }]);
    spec
      .given([{ type: 'NotificationRead', data: { userId: 'u', firmId: 'u', notificationId: id } }])
      .when({ type: 'MarkNotificationRead', userId: 'u', firmId: 'u', notificationId: id })
      .then([]);
  });

  it('always records Mark All Read: notifications may have arrived since the last one', () => {
    spec
      .given([{ type: 'AllNotificationsRead', data: { userId: 'u' } }])
      .when({ type: 'MarkAllNotificationsRead', userId: 'u', firmId: 'u' })
      .then([{ type: 'AllNotificationsRead', data: { userId: 'u', firmId: 'u' } }]);
  });

  it('is not misled by the other events of the person stream (preferences, profile)', () => {
    const off = { ...DEFAULT_NOTIFICATION_PREFERENCES, dealUpdates: false };
    spec
      .given([{ type: 'NotificationPreferencesChanged', data: { userId: 'u', preferences: off } } as never])
      .when({ type: 'MarkNotificationRead', userId: 'u', firmId: 'u', notificationId: id })
      .then([{ type: 'NotificationRead', data: { userId: 'u', firmId: 'u', notificationId: id } }]);
  });
});
