import { Button, FormGroup, HTMLSelect, Intent, Switch, Tag } from '@blueprintjs/core';
import { SESSION_TIMEOUTS, type NotificationPreferences, type PreferencesInput, type SessionTimeout } from '@pf/events';
import { useStateFrom } from '../../../lib/use-state-from';
import { ApiError } from '../../../lib/api-client';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { useSavePreferences, withoutUnconnected } from '../../../lib/preferences';

/** What each toggle does here; off means exactly that thing stops. */
const KINDS: [keyof NotificationPreferences, string, string][] = [
  ['dealUpdates', 'Deal updates', 'A deal agreed, failed or completed; a document uploaded or rejected'],
  ['agentMatches', 'Agent matches', 'A match found for one of your agents'],
  ['messageAlerts', 'Message alerts', 'An offer received, a conversation taken over'],
  ['systemAlerts', 'System alerts', 'A negotiation stalled: the agents could not make their move'],
  ['marketInsights', 'Market insights', 'The insights on Market Intelligence (hidden there when off)'],
  ['pushNotifications', 'In-app notifications', 'The unread count on the bell, kept live (notifications stay listed under Notifications)'],
];

/** The preferences list these too, but nothing here can send them: shown off and disabled, and refused by the server. */
const NOT_CONNECTED: [keyof NotificationPreferences, string, string][] = [
  ['weeklyDigest', 'Weekly digest', 'Not connected to email'],
  ['emailNotifications', 'Email notifications', 'Not connected to email'],
  ['smsNotifications', 'SMS notifications', 'Not connected to SMS'],
];

/** What is saved: the channels that cannot send always off (an account may have stored them on before). */
/**
 * Settings → Preferences: kinds switched off create no notifications, market insights off hides them, in-app
 * off quiets the bell; the timeout is enforced by the server. The Notifications screen's Settings tab edits
 * the same record.
 */
export function PreferencesTab({ preferences }: { preferences: PreferencesInput }) {
  const [values, setValues] = useStateFrom(() => preferences, [preferences]);
  const save = useSavePreferences();
  const toggle = (key: keyof NotificationPreferences) =>
    setValues((current) => ({ ...current, notifications: { ...current.notifications, [key]: !current.notifications[key] } }));

  const submit = async () => {
    try {
      await save.mutateAsync({ ...values, notifications: withoutUnconnected(values.notifications) });
      toastSuccess('Your preferences have been saved', 'Preferences updated');
    } catch (error) {
      toastError(error instanceof ApiError ? error.message : 'Could not save your preferences');
    }
  };

  return (
    <div className="pf-settings-form">
      <h2 className="pf-h4">Notifications</h2>
      {KINDS.map(([key, label, detail]) => (
        <Switch
          key={key}
          checked={values.notifications[key]}
          onChange={() => toggle(key)}
          labelElement={
            <>
              <strong>{label}</strong> <span className="pf-muted pf-small">{detail}</span>
            </>
          }
        />
      ))}
      {NOT_CONNECTED.map(([key, label, detail]) => (
        <Switch
          key={key}
          checked={false}
          disabled
          labelElement={
            <>
              <strong>{label}</strong>{' '}
              <Tag minimal intent={Intent.WARNING}>
                {detail}
              </Tag>
            </>
          }
        />
      ))}
      <FormGroup label="Session timeout" labelFor="session-timeout" helperText="Signed out after this long without using the console">
        <HTMLSelect
          id="session-timeout"
          value={values.sessionTimeout}
          onChange={(e) => {
            // Read now: an update queued behind another runs after the event, when its currentTarget is gone.
            const sessionTimeout = Number(e.currentTarget.value) as SessionTimeout;
            setValues((current) => ({ ...current, sessionTimeout }));
          }}
        >
          {SESSION_TIMEOUTS.map((minutes) => (
            <option key={minutes} value={minutes}>
              {minutes} minutes
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <Button intent={Intent.PRIMARY} icon="floppy-disk" loading={save.isPending} onClick={() => void submit()} text="Save Changes" />
    </div>
  );
}
