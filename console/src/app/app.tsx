import { Spinner } from '@blueprintjs/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { Landing } from '../features/landing/landing';
import { queryClient } from '../lib/query-client';
import { SkipLink } from '../components/skip-link';
import { ErrorBoundary } from './error-boundary';
import { NotFound } from './not-found';
import { SIGNED_IN } from './routes/screens';
import { signedIn } from './routes/start-signed-in';

const RolePicker = lazy(() => import('../features/auth/role-picker').then((m) => ({ default: m.RolePicker })));
const Join = lazy(() => import('./routes/join'));
const SignInPage = lazy(() => import('../features/auth/sign-in-page').then((m) => ({ default: m.SignInPage })));
const SignedIn = signedIn.Screen;

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SkipLink />
      <ErrorBoundary>
        <Suspense fallback={<Spinner className="pf-page-spinner" />}>
          <Switch>
            <Route path="/" component={Landing} />
            <Route path="/auth" component={RolePicker} />
            <Route path="/sign-in" component={SignInPage} />
            <Route path="/join/:token" component={Join} />
            <Route path={SIGNED_IN} component={SignedIn} />
            <Route>
              <main id="main-content" tabIndex={-1}>
                <NotFound />
              </main>
            </Route>
          </Switch>
        </Suspense>
      </ErrorBoundary>
    </QueryClientProvider>
  );
}
