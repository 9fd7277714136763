import { AnchorButton, Button, Callout, Card, H1, Intent, Spinner } from '@blueprintjs/core';
import { invitationView, ROLE_LABELS, type InvitationView } from '@pf/events';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { RouteComponentProps } from 'wouter';
import { Problem } from '../../components/problem';
import { useJoinFirm } from '../../features/settings/api/firm';
import { api, failureReason } from '../../lib/api-client';
import { markAccepting, rememberAfterSignIn, takeAccepting } from '../../lib/after-sign-in';
import { formatDateTime } from '../../lib/display';

const NOT_OPEN: Record<Exclude<InvitationView['status'], 'open'>, string> = {
  used: 'This invitation link has already been used; ask for a new one',
  expired: 'This invitation link has expired; ask for a new one',
  revoked: 'This invitation has been withdrawn by the firm; ask for a new one',
};

/**
 * An invitation link (/join/{token}, docs/decisions/firms-and-visibility.md), outside the signed-in shell so a
 * signed-out visitor meets no 401 and no socket: it says whom it is from, for which firm and role, then signs the
 * visitor in (or starts an account) and joins in one flow: pressing its button signed out leads through sign-in
 * and back here, where the join happens without asking again. The console then starts afresh as the firm's.
 */
export default function Join({ params: { token = '' } }: RouteComponentProps) {
  const path = `/join/${token}`;
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => api.get(`/api/auth/invitations/${encodeURIComponent(token)}`, invitationView),
  });
  const join = useJoinFirm();
  const asked = useRef(false);
  const data = invitation.data;
  useEffect(() => {
    if (asked.current || !data?.signedInAs || data.status !== 'open' || !takeAccepting(token)) return;
    asked.current = true;
    join.mutate(token);
  }, [data, join, token]);

  const accept = (to: string) => {
    markAccepting(token);
    // Through an identity provider the role picker comes first: it leads on to this link.
    rememberAfterSignIn(path);
    window.location.assign(to);
  };

  let body;
  if (invitation.isError)
    body = <Problem level={2} icon="error" title="This invitation link does not work" description={failureReason(invitation.error)} />;
  else if (!data) body = <Spinner />;
  else if (data.status !== 'open')
    body = <Problem level={2} icon="disable" title="This invitation no longer works" description={NOT_OPEN[data.status]} />;
  else if (join.isSuccess)
    body = (
      <Callout intent={Intent.SUCCESS} data-testid="joined">
        <h2 className="bp6-heading pf-callout-title">You joined {join.data.name}</h2>
        <p>
          Your role: {ROLE_LABELS[join.data.role]}. You now see the firm’s agents, conversations, deals, documents and notifications as your
          own.
        </p>
        <Button intent={Intent.PRIMARY} text="Go to the dashboard" onClick={() => window.location.assign('/dashboard')} />
      </Callout>
    );
  else
    body = (
      <Card data-testid="invitation">
        <p className="pf-lead">
          <strong>{data.invitedBy}</strong> invites you to join <strong>{data.firmName}</strong> as{' '}
          <strong>{ROLE_LABELS[data.role]}</strong>.
        </p>
        <p className="pf-muted">The link works once, until {formatDateTime(data.expiresAt)}.</p>
        {join.isError ? (
          <Callout intent={Intent.DANGER} data-testid="join-error" role="alert">
            <h2 className="bp6-heading pf-callout-title">Could not join</h2>
            {failureReason(join.error)}
          </Callout>
        ) : null}
        {data.signedInAs ? (
          <>
            <p>
              You are signed in as {data.signedInAs.name} ({data.signedInAs.firmName}). Joining moves you to {data.firmName}.
            </p>
            <Button intent={Intent.PRIMARY} text={`Join ${data.firmName}`} loading={join.isPending} onClick={() => join.mutate(token)} />
          </>
        ) : data.browserAccount === 'protected' ? (
          <>
            <p>This browser’s account is protected: sign in with its password to join.</p>
            <Button intent={Intent.PRIMARY} text="Sign in and join" onClick={() => accept(`/sign-in?next=${encodeURIComponent(path)}`)} />
          </>
        ) : (
          <>
            <p>
              {data.browserAccount === 'open'
                ? 'You join with the account this browser already has.'
                : 'No registration needed: an account is made for you as you join.'}
            </p>
            <Button
              intent={Intent.PRIMARY}
              text={data.browserAccount === 'open' ? `Sign in and join ${data.firmName}` : `Start and join ${data.firmName}`}
              onClick={() => accept(`/api/login?next=${encodeURIComponent(path)}`)}
            />
            <p className="pf-section">
              Protected an account with a password?{' '}
              <AnchorButton
                variant="minimal"
                intent={Intent.PRIMARY}
                text="Sign in with your password"
                onClick={() => accept(`/sign-in?next=${encodeURIComponent(path)}`)}
              />
            </p>
          </>
        )}
      </Card>
    );

  return (
    <main className="pf-role-picker pf-join" id="main-content" tabIndex={-1}>
      <H1>Join a firm</H1>
      <p className="pf-muted">An invitation from a colleague</p>
      {body}
    </main>
  );
}
