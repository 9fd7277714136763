import { Spinner } from '@blueprintjs/core';
import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { ComingSoon } from '../../components/coming-soon';
import { AppShell } from '../../components/layout/app-shell';
import { LiveProvider } from '../../lib/live/live-provider';
import { NotFound } from '../not-found';

const Dashboard = lazy(() => import('./dashboard'));
const Agents = lazy(() => import('./agents'));
const Conversations = lazy(() => import('./conversations'));
const ConversationDetail = lazy(() => import('./conversation-detail'));

const SOON: [string, string][] = [
  ['/deals', 'Deals & Transactions'],
  ['/documents', 'Documents'],
  ['/matching', 'Matching & Leads'],
  ['/analytics', 'Analytics & Reports'],
  ['/market', 'Market Intelligence'],
  ['/notifications', 'Notifications'],
  ['/settings', 'Settings'],
];


/** Every screen behind the shared navigation, with the live socket open while any of them is shown. */
export default function SignedIn() {
  return (
    <LiveProvider>
      <AppShell>
        <Suspense fallback={<Spinner className="pf-page-spinner" />}>
          <Switch>
            <Route path="/dashboard" component={Dashboard} />
            <Route path="/agents" component={Agents} />
            <Route path="/conversations" component={Conversations} />
            <Route path="/conversations/:id?">{(params) => <ConversationDetail rawId={params.id} />}</Route>
            {SOON.map(([path, title]) => (
              <Route key={path} path={path}>
                <ComingSoon title={title} />
              </Route>
            ))}
            <Route>
              <NotFound />
            </Route>
          </Switch>
        </Suspense>
      </AppShell>
    </LiveProvider>
  );
}
