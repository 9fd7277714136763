import { Spinner } from '@blueprintjs/core';
import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { AppShell } from '../../components/layout/app-shell';
import { DisplaySettings } from '../../features/settings/components/display-settings';
import { LiveProvider } from '../../lib/live/live-provider';
import { NotFound } from '../not-found';
import { screens } from './screens';

/** Every screen behind the shared navigation, with the live socket open while any of them is shown. */
export default function SignedIn() {
  return (
    <LiveProvider>
      <AppShell>
        <DisplaySettings>
          <Suspense fallback={<Spinner className="pf-page-spinner" />}>
            <Switch>
              <Route path="/dashboard" component={screens.dashboard.Screen} />
              <Route path="/agents" component={screens.agents.Screen} />
              <Route path="/conversations" component={screens.conversations.Screen} />
              <Route path="/conversations/:id/history">{(params) => <screens.conversationHistory.Screen rawId={params.id} />}</Route>
              <Route path="/settings" component={screens.settings.Screen} />
              <Route path="/join/:token">{(params) => <screens.join.Screen token={params.token} />}</Route>
              <Route path="/conversations/:id?">{(params) => <screens.conversationDetail.Screen rawId={params.id} />}</Route>
              <Route path="/analytics" component={screens.analytics.Screen} />
              <Route path="/market" component={screens.market.Screen} />
              <Route path="/notifications" component={screens.notifications.Screen} />
              <Route path="/deals" component={screens.deals.Screen} />
              <Route path="/documents" component={screens.documents.Screen} />
              <Route path="/matching" component={screens.matching.Screen} />
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
