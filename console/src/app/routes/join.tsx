import { Button, Callout, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { ROLE_LABELS } from '@pf/events';
import { useEffect, useRef } from 'react';
import type { RouteComponentProps } from 'wouter';
import { PageHeader } from '../../components/page-header';
import { useJoinFirm } from '../../features/settings/api/firm';
import { failureReason } from '../../lib/api-client';
import { useUser } from '../../lib/current-user';

/**
 * An invitation link (/join/{token}, docs/decisions/firms-and-visibility.md): the signed-in person joins the
 * firm that sent it, once. The console then starts afresh, so every screen and the socket are the firm's.
 */
export default function Join({ params: { token } }: RouteComponentProps) {
  const join = useJoinFirm();
  // Signed out, the shell sends the browser to sign in and back here (lib/after-sign-in.ts): join only once signed in.
  const signedIn = useUser().data !== undefined;
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || !signedIn || token === undefined) return;
    asked.current = true;
    join.mutate(token);
  }, [join, token, signedIn]);
  return (
    <>
      <PageHeader title="Join a firm" subtitle="An invitation from a colleague" />
      {join.isPending || join.isIdle ? (
        <Spinner />
      ) : join.isError ? (
        <div data-testid="join-error">
          <NonIdealState icon="error" title="Could not join" description={failureReason(join.error)} />
        </div>
      ) : (
        <Callout intent={Intent.SUCCESS} title={`You joined ${join.data.name}`} data-testid="joined">
          <p>
            Your role: {ROLE_LABELS[join.data.role]}. You now see the firm’s agents, conversations, deals, documents and notifications as
            your own.
          </p>
          <Button intent={Intent.PRIMARY} text="Go to the dashboard" onClick={() => window.location.assign('/dashboard')} />
        </Callout>
      )}
    </>
  );
}
