import { Button, HTMLTable, Intent } from '@blueprintjs/core';
import { ROLE_LABELS } from '@pf/events';
import { failureReason } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/display';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { usePendingInvites, useRevokeInvite } from '../api/firm';

/**
 * Copies an invitation link: the Clipboard API where the page may use it (https, or localhost), else the
 * selected link field's text by the older copy command; failing both, says to copy it by hand.
 */
export async function copyLink(link: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(link);
    toastSuccess('Send it to your colleague', 'Invitation link copied');
    return;
  } catch {
    const field = document.getElementById('invitation-link');
    if (field instanceof HTMLInputElement) {
      field.select();
      // Deprecated but still the only copy without the Clipboard API (a console served over plain http).
      if (document.execCommand('copy')) return toastSuccess('Send it to your colleague', 'Invitation link copied');
    }
  }
  toastError('Your browser did not allow copying: select the link and copy it');
}

/** Settings → Members: the invitations that still work, each revocable (its link stops working at once). */
export function PendingInvites() {
  const invites = usePendingInvites();
  const revoke = useRevokeInvite();
  if (!invites.data?.length) return invites.isError ? <p className="pf-muted">{failureReason(invites.error)}</p> : null;
  return (
    <div className="pf-section">
      <h2 className="pf-h4">Pending invitations</h2>
      <HTMLTable compact striped className="pf-full" data-testid="pending-invites">
        <thead>
          <tr>
            <th>Role</th>
            <th>Invited by</th>
            <th>Created</th>
            <th>Works until</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {invites.data.map((invite) => (
            <tr key={invite.inviteId} data-testid="pending-invite">
              <td>{ROLE_LABELS[invite.role]}</td>
              <td>{invite.invitedBy}</td>
              <td>{formatDateTime(invite.createdAt)}</td>
              <td>{formatDateTime(invite.expiresAt)}</td>
              <td>
                <Button
                  small
                  minimal
                  intent={Intent.DANGER}
                  icon="cross"
                  text="Revoke"
                  aria-label={`Revoke the ${ROLE_LABELS[invite.role]} invitation created ${formatDateTime(invite.createdAt)}`}
                  loading={revoke.isPending && revoke.variables === invite.inviteId}
                  onClick={() =>
                    revoke.mutate(invite.inviteId, {
                      onSuccess: () => toastSuccess('Its link no longer works', 'Invitation revoked'),
                      onError: (error) => toastError(failureReason(error)),
                    })
                  }
                />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
