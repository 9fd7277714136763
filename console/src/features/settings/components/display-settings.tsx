import { Spinner } from '@blueprintjs/core';
import { Fragment, type ReactNode } from 'react';
import { setDisplay } from '../../../lib/display';
import { useProfile } from '../api/settings';

/**
 * Applies Settings → Profile's timezone and language to every time the console shows. The screens wait for
 * the profile (one small read, beside the screen's own code), and are drawn again when either changes, so no
 * time is ever shown in another zone than the one chosen.
 */
export function DisplaySettings({ children }: { children: ReactNode }) {
  const profile = useProfile();
  if (profile.data) setDisplay(profile.data);
  else if (!profile.error) return <Spinner className="pf-page-spinner" />;
  const key = profile.data ? `${profile.data.timezone}|${profile.data.language}` : 'default';
  return <Fragment key={key}>{children}</Fragment>;
}
