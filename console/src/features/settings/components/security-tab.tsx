import { Alert, Button, Callout, HTMLTable, InputGroup, Intent, Tag } from '@blueprintjs/core';
import type { SessionView } from '@pf/events';
import { useState } from 'react';
import { toastError, toastFailure, toastSuccess } from '../../../lib/toaster';
import { useDeleteAccount, useRevokeSession, useSessions } from '../api/settings';
import { formatDateTime } from '../../../lib/display';

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

/** Settings → Security: active sessions, each revocable; Delete Account after confirmation. */
export function SecurityTab() {
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
      <h2 className="pf-h4">Active sessions</h2>
      <HTMLTable compact striped className="pf-full-width">
        <thead>
          <tr>
            <th>Device</th>
            <th>Signed in</th>
            <th>Last used</th>
            <th />
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
