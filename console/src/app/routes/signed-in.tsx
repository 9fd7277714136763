import { Spinner } from '@blueprintjs/core';
import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { AppShell } from '../../components/layout/app-shell';
import { DisplaySettings } from '../../features/settings/components/display-settings';
import { LiveProvider } from '../../lib/live/live-provider';
import { NotFound } from '../not-found';

const Dashboard = lazy(() => import('./dashboard'));
const Agents = lazy(() => import('./agents'));
const Conversations = lazy(() => import('./conversations'));
const ConversationDetail = lazy(() => import('./conversation-detail'));
const Analytics = lazy(() => import('./analytics'));
const Market = lazy(() => import('./market'));
const Notifications = lazy(() => import('./notifications'));
const Deals = lazy(() => import('./deals'));
const Documents = lazy(() => import('./documents'));
const Matching = lazy(() => import('./matching'));
const ConversationHistory = lazy(() => import('./conversation-history'));
const Settings = lazy(() => import('./settings'));
const Join = lazy(() => import('./join'));

/** Every screen behind the shared navigation, with the live socket open while any of them is shown. */
export default function SignedIn() {
  return (
    <LiveProvider>
      <AppShell>
        <DisplaySettings>
          <Suspense fallback={<Spinner className="pf-page-spinner" />}>
            <Switch>
              <Route path="/dashboard" component={Dashboard} />
              <Route path="/agents" component={Agents} />
              <Route path="/conversations" component={Conversations} />
              <Route path="/conversations/:id/history">{(params) => <ConversationHistory rawId={params.id} />}</Route>
              <Route path="/settings" component={Settings} />
              <Route path="/join/:token">{(params) => <Join token={params.token} />}</Route>
              <Route path="/conversations/:id?">{(params) => <ConversationDetail rawId={params.id} />}</Route>
              <Route path="/analytics" component={Analytics} />
              <Route path="/market" component={Market} />
              <Route path="/notifications" component={Notifications} />
              <Route path="/deals" component={Deals} />
              <Route path="/documents" component={Documents} />
              <Route path="/matching" component={Matching} />
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
