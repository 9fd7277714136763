import { Spinner } from '@blueprintjs/core';
import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { AppShell } from '../../components/layout/app-shell';
import { DisplaySettings } from '../../features/settings/components/display-settings';
import { LiveProvider } from '../../lib/live/live-provider';
import { NotFound } from '../not-found';
import { screens } from './screens';

const Dashboard = screens.dashboard.Screen;
const Agents = screens.agents.Screen;
const Conversations = screens.conversations.Screen;
const ConversationDetail = screens.conversationDetail.Screen;
const Analytics = screens.analytics.Screen;
const Market = screens.market.Screen;
const Notifications = screens.notifications.Screen;
const Deals = screens.deals.Screen;
const Documents = screens.documents.Screen;
const Matching = screens.matching.Screen;
const ConversationHistory = screens.conversationHistory.Screen;
const Settings = screens.settings.Screen;
const Join = screens.join.Screen;

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
