import type { EventOf } from '@pf/events';
import type { Decider } from '../handle-command';

/**
 * A person's notification commands, on their stream `user-{userId}` (which other user events share; this
 * decider folds only its own). Reading is one-way (no way back to unread: docs/behaviour/notifications.md), so a repeated Mark as
 * read records nothing; Mark All Read always records, since notifications may have arrived since the last one.
 */
export type NotificationCommand =
  | { type: 'MarkNotificationRead'; userId: string; firmId: string; notificationId: string }
  | { type: 'MarkAllNotificationsRead'; userId: string; firmId: string };

export type NotificationEvent = EventOf<'NotificationRead'> | EventOf<'AllNotificationsRead'>;

/** The notification kinds a person wants are saved by identity/preferences.ts, like the rest of Preferences. */
export interface NotificationState {
  /** Read one by one since the last Mark All Read (older ones are read by it anyway). */
  readonly read: ReadonlySet<string>;
}

export const notificationDecider: Decider<NotificationCommand, NotificationState, NotificationEvent> = {
  initialState: { read: new Set() },
  decide(command, state) {
    switch (command.type) {
      case 'MarkNotificationRead':
        if (state.read.has(command.notificationId)) return [];
        return [
          { type: 'NotificationRead', data: { userId: command.userId, firmId: command.firmId, notificationId: command.notificationId } },
        ];
      case 'MarkAllNotificationsRead':
        return [{ type: 'AllNotificationsRead', data: { userId: command.userId, firmId: command.firmId } }];
      default: {
        const unhandled: never = command;
        return unhandled;
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'NotificationRead':
        return { ...state, read: new Set([...state.read, event.data.notificationId]) };
      case 'AllNotificationsRead':
        return { ...state, read: new Set() };
      default:
        return state; // other events of the user's stream (profile, sessions) are not this decider's
    }
  },
};
