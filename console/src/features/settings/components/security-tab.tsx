import { Alert, Button, Callout, HTMLTable, InputGroup, Intent, Tag } from '@blueprintjs/core';
import type { SecurityView, SessionView } from '@pf/events';
import { useState } from 'react';
import { toastError, toastFailure, toastSuccess } from '../../../lib/toaster';
import { useDeleteAccount, useProfile, useRevokeSession, useSessions } from '../api/settings';
import { useSecurity } from '../api/security';
import { formatDateTime } from '../../../lib/display';
import { PasswordForm } from './password-form';
import { TwoFactorToggle } from './two-factor-toggle';

const when = (iso: string) => formatDateTime(iso);

function SessionRow({ session }: { session: SessionView }) {
  const revoke = useRevokeSession();
  const end = async () => {
    try {
      await revoke.mutateAsync(session.id);
      if (session.isCurrent) window.location.assign('/');
      else toastSuccess(`${session.device} is signed out`, 'Session revoked');
    } catch (error) {
      toastFailure('Could not revoke this session', error);
    }
  };
  return (
    <tr data-testid="session-row">
      <td>
        {session.device}{' '}
        {session.isCurrent ? (
          <Tag intent={Intent.SUCCESS} minimal>
            This browser
          </Tag>
        ) : null}
      </td>
      <td>{when(session.createdAt)}</td>
      <td>{when(session.lastUsedAt)}</td>
      <td>
        <Button small intent={Intent.DANGER} minimal icon="log-out" loading={revoke.isPending} onClick={() => void end()} text="Revoke" />
      </td>
    </tr>
  );
}

/** What Log out does for this account, said plainly (docs/behaviour/sign-in.md). */
function LogOutMeans({ security }: { security: SecurityView }) {
  if (security.signIn === 'provider')
    return (
      <Callout data-testid="log-out-means">
        You sign in through your organisation’s identity provider, which protects this account. Log out ends this session; signing in again
        goes through the provider.
      </Callout>
    );
  if (!security.password)
    return (
      <Callout intent={Intent.WARNING} data-testid="log-out-means">
        <h2 className="bp6-heading pf-callout-title">Your account has no password</h2>
        Log out ends this session, but this browser remembers your account: anyone who presses Get Started here afterwards is signed back in
        as you, without a password. Set a password below to make Log out lock your account.
      </Callout>
    );
  return (
    <Callout intent={Intent.SUCCESS} data-testid="log-out-means">
      <h2 className="bp6-heading pf-callout-title">Your account is protected</h2>
      Log out ends your access on this browser. Signing in again, here or on any other browser, asks for your email and password
      {security.twoFactor ? ' and a code from your authenticator app' : ''}.
    </Callout>
  );
}

/**
 * Settings → Security (docs/behaviour/settings.md): what Log out does, Change Password, the two-factor toggle, the
 * active sessions (each revocable) and the Danger Zone.
 */
export function SecurityTab() {
  const security = useSecurity();
  const profile = useProfile();
  const sessions = useSessions();
  const remove = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');

  const deleteAccount = async () => {
    try {
      await remove.mutateAsync();
      window.location.assign('/');
    } catch (error) {
      toastFailure('Could not delete your account', error);
    }
  };

  return (
    <div className="pf-settings-form">
      {security.data ? (
        <>
          <LogOutMeans security={security.data} />
          {security.data.signIn === 'guest' ? (
            <>
              <PasswordForm key={profile.data?.email ?? ''} security={security.data} email={profile.data?.email ?? null} />
              <TwoFactorToggle security={security.data} />
            </>
          ) : null}
        </>
      ) : null}
      <h2 className="pf-h4 pf-section">Active sessions</h2>
      <HTMLTable compact striped className="pf-full-width">
        <thead>
          <tr>
            <th>Device</th>
            <th>Signed in</th>
            <th>Last used</th>
            <th>
              <span className="pf-visually-hidden">Revoke</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.data?.map((session) => (
            <SessionRow key={session.id} session={session} />
          ))}
        </tbody>
      </HTMLTable>
      <Callout intent={Intent.DANGER} className="pf-section">
        <h2 className="bp6-heading pf-callout-title">Danger Zone</h2>
        <p>Permanently delete your account and all associated data. This action cannot be undone.</p>
        <Button intent={Intent.DANGER} icon="trash" onClick={() => setConfirming(true)} text="Delete Account" />
      </Callout>
      <Alert
        isOpen={confirming}
        intent={Intent.DANGER}
        icon="trash"
        confirmButtonText="Delete Account"
        cancelButtonText="Cancel"
        onCancel={() => setConfirming(false)}
        onConfirm={() => (typed === 'DELETE' ? void deleteAccount() : toastError('Type DELETE to confirm'))}
        loading={remove.isPending}
      >
        <p>
          Your agents, your profile and your sessions will be deleted, and your personal data in the history made unreadable. Counterparties
          keep their conversations.
        </p>
        <p>Type DELETE to confirm.</p>
        <InputGroup aria-label="Type DELETE to confirm" value={typed} onValueChange={setTyped} />
      </Alert>
    </div>
  );
}
