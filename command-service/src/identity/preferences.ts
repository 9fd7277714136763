import { streams, type EventMetadata, type NotificationPreferences, type PreferencesInput } from '@pf/events';
import { AccountStore, Invalid, type ServiceContext } from '@pf/infra';
import { handleCommand, type Handled } from '../handle-command';
import { userDecider, type UserEvent, type UserState } from './user';

/**
 * Channels the preferences list that nothing here can send (docs/behaviour/notifications.md): accepted only as off, so none is ever stored "on" while
 * changing nothing (Settings shows them disabled, labelled like Billing).
 */
const NOT_CONNECTED: [keyof NotificationPreferences, string][] = [
  ['weeklyDigest', 'The weekly digest is not connected to email, so it cannot be switched on'],
  ['emailNotifications', 'Email notifications are not connected to email, so they cannot be switched on'],
  ['smsNotifications', 'SMS notifications are not connected to SMS, so they cannot be switched on'],
];

/**
 * The one way preferences are saved, whichever screen saves them (Settings → Preferences, or the Settings tab
 * of Notifications, which sends the notification kinds only): recorded on the user's stream (only what
 * changed: NotificationPreferencesChanged, SessionTimeoutChanged), then applied to the account row that both
 * screens read and the session check obeys. The notifications read model folds the same events.
 */
export async function savePreferences(
  { pool, store, sessions }: Pick<ServiceContext, 'pool' | 'store' | 'sessions'>,
  userId: string,
  metadata: EventMetadata,
  change: Partial<PreferencesInput>,
  /** Where the notification kinds sit in the request body, for the message naming a refused one. */
  field = 'notifications.',
): Promise<{ handled: Handled<UserState, UserEvent>; saved: PreferencesInput }> {
  const refused = NOT_CONNECTED.find(([key]) => change.notifications?.[key]);
  if (refused) throw new Invalid(`${field}${refused[0]}: ${refused[1]}`);
  const accounts = new AccountStore(pool);
  const current = await accounts.preferences(userId);
  const next: PreferencesInput = {
    notifications: change.notifications ?? current.notifications,
    sessionTimeout: change.sessionTimeout ?? current.sessionTimeout,
  };
  const handled = await handleCommand(store, streams.user(userId), userDecider, { type: 'ChangePreferences', userId, ...next }, metadata);
  await accounts.savePreferences(userId, next);
  // A new timeout applies to this user's sessions from their next request, in this process at once.
  sessions.forgetUser(userId);
  return { handled, saved: await accounts.preferences(userId) };
}
