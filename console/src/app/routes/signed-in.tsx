import { Spinner } from '@blueprintjs/core';
import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { AppShell } from '../../components/layout/app-shell';
import { DisplaySettings } from '../../features/settings/components/display-settings';
import { LiveProvider } from '../../lib/live/live-provider';
import { NotFound } from '../not-found';
import { routes, screens } from './screens';

/** Every screen behind the shared navigation, with the live socket open while any of them is shown. */
export default function SignedIn() {
  return (
    <LiveProvider>
      <AppShell>
        <DisplaySettings>
          <Suspense fallback={<Spinner className="pf-page-spinner" />}>
            <Switch>
              {routes.map(({ path, screen }) => (
                <Route key={path} path={path} component={screens[screen].Screen} />
              ))}
              <Route>
                <NotFound />
              </Route>
            </Switch>
          </Suspense>
        </DisplaySettings>
      </AppShell>
    </LiveProvider>
  );
}
