import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  DEFAULT_SESSION_TIMEOUT,
  type AgentDefaults,
  type EventOf,
  type NotificationPreferences,
  type UserCommand,
} from '@pf/events';
import { NotFound } from '@pf/infra';
import type { Decider } from '../handle-command';

export type UserEvent = EventOf<
  'UserProfileChanged' | 'NotificationPreferencesChanged' | 'SessionTimeoutChanged' | 'AgentDefaultsChanged' | 'AccountDeleted'
>;

export interface UserState {
  deleted: boolean;
  notifications: NotificationPreferences;
  sessionTimeout: number;
  defaults: AgentDefaults | null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A person's account settings as events (user-{id}). Only what changed is recorded, so the notifications read
 * model and the history see one event per real change; a deleted account accepts nothing more.
 */
function decide(command: UserCommand, state: UserState): UserEvent[] {
  // Deleting again records nothing: Delete Account is retried until every one of its steps has run.
  if (state.deleted && command.type === 'DeleteAccount') return [];
  if (state.deleted) throw new NotFound('This account has been deleted');
  const { userId } = command;
  switch (command.type) {
    case 'ChangeProfile':
      return [{ type: 'UserProfileChanged', data: { userId, profile: command.profile } }];
    case 'ChangePreferences': {
      const events: UserEvent[] = [];
      if (!same(command.notifications, state.notifications)) {
        events.push({ type: 'NotificationPreferencesChanged', data: { userId, preferences: command.notifications } });
      }
      if (command.sessionTimeout !== state.sessionTimeout) {
        events.push({ type: 'SessionTimeoutChanged', data: { userId, minutes: command.sessionTimeout } });
      }
      return events;
    }
    case 'ChangeAgentDefaults':
      return same(command.defaults, state.defaults) ? [] : [{ type: 'AgentDefaultsChanged', data: { userId, defaults: command.defaults } }];
    case 'DeleteAccount':
      return [{ type: 'AccountDeleted', data: { userId } }];
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'NotificationPreferencesChanged':
      return { ...state, notifications: event.data.preferences };
    case 'SessionTimeoutChanged':
      return { ...state, sessionTimeout: event.data.minutes };
    case 'AgentDefaultsChanged':
      return { ...state, defaults: event.data.defaults };
    case 'AccountDeleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

export const userDecider: Decider<UserCommand, UserState, UserEvent> = {
  initialState: {
    deleted: false,
    notifications: DEFAULT_NOTIFICATION_PREFERENCES,
    sessionTimeout: DEFAULT_SESSION_TIMEOUT,
    defaults: null,
  },
  decide,
  evolve,
};
