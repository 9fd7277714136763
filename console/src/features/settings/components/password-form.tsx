import { Button, Callout, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { changePasswordInput, PASSWORD_MIN, type SecurityView } from '@pf/events';
import { useState } from 'react';
import { failureReason } from '../../../lib/api-client';
import { fieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { toastSuccess } from '../../../lib/toaster';
import { useChangePassword } from '../api/security';

/** "current: Your current password is not right" from the server: the field it names and its message. */
function byField(error: unknown): FieldErrors {
  const reason = failureReason(error);
  const named = /^(email|current|password|confirm): (.*)$/.exec(reason);
  return named ? { [named[1]!]: named[2]! } : { form: reason };
}

/**
 * Change Password (docs/behaviour/settings.md): the first password also names the email to sign in with; a change
 * asks for the current password. Each field's problem is said under it, in the contract's words.
 */
export function PasswordForm({ security, email }: { security: SecurityView; email: string | null }) {
  const change = useChangePassword();
  const [values, setValues] = useState({ email: email ?? '', current: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const first = !security.password;
  const set = (field: keyof typeof values) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  const submit = async () => {
    const input = first
      ? { email: values.email, password: values.password, confirm: values.confirm }
      : { current: values.current, password: values.password, confirm: values.confirm };
    const checked = changePasswordInput.safeParse(input);
    if (!checked.success) return setErrors(fieldErrors(checked.error));
    setErrors({});
    try {
      await change.mutateAsync(input);
      setValues((current) => ({ ...current, current: '', password: '', confirm: '' }));
      toastSuccess(
        first ? 'From now on, signing in asks for your email and password' : 'Your other sessions have been signed out',
        first ? 'Password set' : 'Password changed',
      );
    } catch (error) {
      setErrors(byField(error));
    }
  };

  const field = (name: keyof typeof values, label: string, type: string, helper?: string) => (
    <FormGroup
      label={label}
      labelFor={`security-${name}`}
      helperText={errors[name] ?? helper}
      intent={errors[name] ? Intent.DANGER : Intent.NONE}
    >
      <InputGroup
        id={`security-${name}`}
        type={type}
        autoComplete={name === 'email' ? 'username' : name === 'current' ? 'current-password' : 'new-password'}
        value={values[name]}
        onValueChange={set(name)}
        intent={errors[name] ? Intent.DANGER : Intent.NONE}
      />
    </FormGroup>
  );

  return (
    <form
      className="pf-section"
      data-testid="password-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 className="pf-h4">Change Password</h2>
      {errors.form ? (
        <Callout intent={Intent.DANGER} role="alert">
          {errors.form}
        </Callout>
      ) : null}
      {first ? field('email', 'Sign-in email', 'email', 'You sign in with this email and your password from now on') : null}
      {first ? null : field('current', 'Current password', 'password')}
      {field('password', 'New password', 'password', `At least ${PASSWORD_MIN} characters`)}
      {field('confirm', 'Confirm new password', 'password')}
      <Button type="submit" intent={Intent.PRIMARY} loading={change.isPending} text={first ? 'Set Password' : 'Change Password'} />
    </form>
  );
}
