import { Button, Callout, Card, FormGroup, H1, InputGroup, Intent } from '@blueprintjs/core';
import { signInInput, signInView, type SignInInput } from '@pf/events';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, failureReason } from '../../lib/api-client';
import { afterSignInFrom } from '../../lib/after-sign-in';

/**
 * Signing in to a protected account (docs/behaviour/sign-in.md), at /sign-in: where Get Started leads a browser
 * whose account has a password, and where anyone signs in to theirs on another browser. Email and password, then
 * the code of the authenticator app (or a recovery code) when two-factor is on. Every refusal is said in words.
 */
export function SignInPage() {
  const [values, setValues] = useState({ email: '', password: '', code: '' });
  const [askCode, setAskCode] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const signIn = useMutation({ mutationFn: (input: SignInInput) => api.post('/api/auth/sign-in', signInView, input) });
  const set = (field: keyof typeof values) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  const submit = async () => {
    const input = { email: values.email, password: values.password, ...(askCode ? { code: values.code } : {}) };
    const checked = signInInput.safeParse(input);
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Check the form');
    setProblem(null);
    try {
      const answer = await signIn.mutateAsync(input);
      if (answer.status === 'code-required') return setAskCode(true);
      // A fresh start, so every screen and the socket open with the new session.
      window.location.assign(afterSignInFrom(window.location.search, '/auth'));
    } catch (error) {
      setProblem(failureReason(error));
    }
  };

  return (
    <main className="pf-role-picker pf-sign-in" id="main-content" tabIndex={-1}>
      <H1>Sign in</H1>
      <p className="pf-muted">This account is protected: sign in with its email and password.</p>
      <Card>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          {problem ? (
            <Callout intent={Intent.DANGER} role="alert" data-testid="sign-in-problem">
              <h2 className="bp6-heading pf-callout-title">Could not sign in</h2>
              {problem}
            </Callout>
          ) : null}
          <FormGroup label="Email" labelFor="sign-in-email">
            <InputGroup id="sign-in-email" type="email" autoComplete="username" value={values.email} onValueChange={set('email')} />
          </FormGroup>
          <FormGroup label="Password" labelFor="sign-in-password">
            <InputGroup
              id="sign-in-password"
              type="password"
              autoComplete="current-password"
              value={values.password}
              onValueChange={set('password')}
            />
          </FormGroup>
          {askCode ? (
            <FormGroup
              label="Authentication code"
              labelFor="sign-in-code"
              helperText="The 6-digit code your authenticator app shows now, or one of your recovery codes"
            >
              <InputGroup
                id="sign-in-code"
                inputMode="numeric"
                autoComplete="one-time-code"
                autoFocus
                value={values.code}
                onValueChange={set('code')}
              />
            </FormGroup>
          ) : null}
          <Button type="submit" intent={Intent.PRIMARY} loading={signIn.isPending} text="Sign in" />
        </form>
      </Card>
      <p className="pf-section">
        Not your account? <a href="/api/login?fresh=1">Start a new account</a> (no registration needed), or{' '}
        <a href="/">go back to the start</a>.
      </p>
    </main>
  );
}
