import { Callout, Intent } from '@blueprintjs/core';
import { mayWrite, roleRefusal } from '@pf/events';
import type { ReactNode } from 'react';
import { useUser } from '../lib/current-user';

/** Whether the signed-in person's role may create, change, take over or send (the server decides; this only hides). */
export function useMayWrite(): boolean {
  const role = useUser().data?.role;
  return role === undefined || mayWrite(role);
}

/** What only an operator or admin may use: hidden from an auditor (docs/decisions/firms-and-visibility.md). */
export function WritersOnly({ children }: { children: ReactNode }) {
  return useMayWrite() ? <>{children}</> : null;
}

/** Says once, at the top of every screen, why an auditor sees no buttons to change anything. */
export function RoleNotice() {
  const user = useUser().data;
  if (!user?.role || mayWrite(user.role)) return null;
  return (
    <Callout intent={Intent.PRIMARY} icon="eye-open" className="pf-section" data-testid="role-notice">
      {roleRefusal(user.role, 'create, change, take over or send')}.
    </Callout>
  );
}
