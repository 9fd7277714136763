import {
  Alert,
  Button,
  Callout,
  ControlGroup,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  InputGroup,
  Intent,
  NonIdealState,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { FIRM_ROLES, ROLE_LABELS, roleRefusal, type FirmMemberView, type FirmRole, type InviteView } from '@pf/events';
import { useState } from 'react';
import { failureReason } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/display';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { useChangeRole, useFirm, useInvite, useRemoveMember, useRenameFirm } from '../api/firm';
import { copyLink, PendingInvites } from './pending-invites';

const ROLE_HELP: Record<FirmRole, string> = {
  admin: 'everything, and the members',
  operator: 'creates and changes agents, takes over and sends',
  auditor: 'reads everything of the firm, History, verify and export included; changes nothing',
};

/**
 * Settings → Members (docs/decisions/firms-and-visibility.md): everyone sees the firm and its members; an admin
 * names the firm, invites with a single-use link that expires, changes roles and removes members (whose
 * sessions end at once). The server decides; this screen hides what the role may not do and says why.
 */
export function MembersTab() {
  const firm = useFirm();
  const rename = useRenameFirm();
  const invite = useInvite();
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const [name, setName] = useState<string | null>(null);
  const [role, setRole] = useState<FirmRole>('operator');
  const [link, setLink] = useState<InviteView | null>(null);
  const [removing, setRemoving] = useState<FirmMemberView | null>(null);
  if (firm.isError) return <NonIdealState icon="error" title="Could not load your firm" description={failureReason(firm.error)} />;
  if (!firm.data) return <Spinner />;
  const { data } = firm;
  const isAdmin = data.role === 'admin';
  const fail = (error: unknown) => toastError(failureReason(error));
  const fullLink = link ? `${window.location.origin}${link.link}` : '';
  return (
    <div data-testid="members-tab">
      <p>
        Your role:{' '}
        <Tag intent={Intent.PRIMARY} data-testid="my-role">
          {ROLE_LABELS[data.role]}
        </Tag>{' '}
        ({ROLE_HELP[data.role]})
      </p>
      {isAdmin ? (
        <FormGroup label="Firm name" labelFor="firm-name">
          <InputGroup
            id="firm-name"
            value={name ?? data.name}
            onChange={(event) => setName(event.target.value)}
            style={{ maxWidth: 360 }}
          />
          <Button
            className="pf-section"
            text="Save name"
            disabled={name === null || name.trim() === '' || name === data.name}
            loading={rename.isPending}
            onClick={() => rename.mutate(name!, { onSuccess: () => toastSuccess('Firm name saved'), onError: fail })}
          />
        </FormGroup>
      ) : (
        <p>
          Firm: <strong data-testid="firm-name">{data.name}</strong>
        </p>
      )}
      <HTMLTable compact striped className="pf-full" data-testid="members">
        <thead>
          <tr>
            <th>Member</th>
            <th>Email</th>
            <th>Role</th>
            {isAdmin ? <th /> : null}
          </tr>
        </thead>
        <tbody>
          {data.members.map((member) => (
            <tr key={member.userId} data-testid="member-row">
              <td>
                {member.name} {member.isYou ? <Tag minimal>You</Tag> : null}
              </td>
              <td>{member.email ?? '–'}</td>
              <td>
                {isAdmin && !member.isYou ? (
                  <HTMLSelect
                    aria-label={`Role of ${member.name}`}
                    value={member.role}
                    options={FIRM_ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
                    onChange={(event) =>
                      changeRole.mutate({ userId: member.userId, role: event.target.value as FirmRole }, { onError: fail })
                    }
                  />
                ) : (
                  ROLE_LABELS[member.role]
                )}
              </td>
              {isAdmin ? (
                <td>
                  {member.isYou ? null : (
                    <Button small minimal intent={Intent.DANGER} icon="remove" text="Remove" onClick={() => setRemoving(member)} />
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {isAdmin ? (
        <div className="pf-section">
          <FormGroup
            label="Invite a colleague"
            helperText="A link that works once, for 72 hours. Whoever opens it sees who sent it, for which firm and role, and joins with that role."
          >
            <HTMLSelect
              aria-label="Role of the invited colleague"
              value={role}
              options={FIRM_ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
              onChange={(event) => setRole(event.target.value as FirmRole)}
            />{' '}
            <Button
              intent={Intent.PRIMARY}
              icon="new-person"
              text="Create invitation link"
              loading={invite.isPending}
              onClick={() => invite.mutate(role, { onSuccess: setLink, onError: fail })}
            />
          </FormGroup>
          {link ? (
            <Callout intent={Intent.SUCCESS} title={`Invitation for an ${ROLE_LABELS[link.role]}`} data-testid="invite-link">
              <ControlGroup fill>
                <InputGroup
                  id="invitation-link"
                  readOnly
                  aria-label="Invitation link"
                  value={fullLink}
                  onFocus={(event) => event.currentTarget.select()}
                />
                <Button icon="duplicate" text="Copy link" onClick={() => void copyLink(fullLink)} />
              </ControlGroup>
              <p className="pf-muted pf-small">
                Works once, until {formatDateTime(link.expiresAt)}. Shown only now: send it to your colleague, or revoke it below.
              </p>
            </Callout>
          ) : null}
          <PendingInvites />
        </div>
      ) : (
        <Callout className="pf-section" data-testid="members-admin-only">
          {roleRefusal(data.role, 'invite members, change roles or remove members')}.
        </Callout>
      )}
      <Alert
        isOpen={removing !== null}
        intent={Intent.DANGER}
        cancelButtonText="Cancel"
        confirmButtonText="Remove"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing)
            remove.mutate(removing.userId, {
              onSuccess: () => toastSuccess(`${removing.name} removed; their sessions have ended`),
              onError: fail,
            });
          setRemoving(null);
        }}
      >
        Remove {removing?.name} from {data.name}? Their sessions end at once and they no longer see the firm’s work.
      </Alert>
    </div>
  );
}
