import { Button, Callout, Classes, Code, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Intent, Switch } from '@blueprintjs/core';
import type { SecurityView, TwoFactorSetupView } from '@pf/events';
import { useState } from 'react';
import { failureReason } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/toaster';
import { useDisableTwoFactor, useEnableTwoFactor, useStartTwoFactor } from '../api/security';

type Step = { kind: 'off' } | { kind: 'scan'; setup: TwoFactorSetupView } | { kind: 'codes'; codes: string[] } | { kind: 'turn-off' };

/** The code field of both dialogs: the problem said under it. */
function CodeField({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error: string | null;
}) {
  return (
    <FormGroup label={label} labelFor={id} helperText={error} intent={error ? Intent.DANGER : Intent.NONE}>
      <InputGroup
        id={id}
        inputMode="numeric"
        autoComplete="one-time-code"
        value={value}
        onValueChange={onChange}
        intent={error ? Intent.DANGER : Intent.NONE}
      />
    </FormGroup>
  );
}

/**
 * The two-factor toggle (docs/behaviour/settings.md): on walks through the QR code and a first code, then shows the
 * recovery codes once; off asks for a code or the password. Needs a password first.
 */
export function TwoFactorToggle({ security }: { security: SecurityView }) {
  const start = useStartTwoFactor();
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const [step, setStep] = useState<Step>({ kind: 'off' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setStep({ kind: 'off' });
    setCode('');
    setPassword('');
    setError(null);
  };

  const toggle = async () => {
    setError(null);
    if (security.twoFactor) return setStep({ kind: 'turn-off' });
    try {
      setStep({ kind: 'scan', setup: await start.mutateAsync() });
    } catch (failure) {
      setError(failureReason(failure));
    }
  };
  const confirmOn = async () => {
    try {
      const { codes } = await enable.mutateAsync(code);
      setCode('');
      setError(null);
      setStep({ kind: 'codes', codes });
    } catch (failure) {
      setError(failureReason(failure).replace(/^code: /, ''));
    }
  };
  const confirmOff = async () => {
    try {
      await disable.mutateAsync(code.trim() ? { code } : { password });
      close();
      toastSuccess('Signing in asks for your password only', 'Two-factor authentication is off');
    } catch (failure) {
      setError(failureReason(failure).replace(/^(code|password): /, ''));
    }
  };

  return (
    <div className="pf-section" data-testid="two-factor">
      <h2 className="pf-h4">Two-factor authentication</h2>
      <Switch
        checked={security.twoFactor}
        disabled={!security.password || start.isPending}
        onChange={() => void toggle()}
        labelElement={<strong>Two-factor authentication</strong>}
      />
      <p className="pf-muted pf-small">
        {security.password
          ? security.twoFactor
            ? `On: signing in asks for a code from your authenticator app after your password. Recovery codes left: ${security.recoveryCodesLeft}.`
            : 'Off: turn it on to be asked for a code from an authenticator app after your password.'
          : 'Set a password first: two-factor authentication adds to it.'}
      </p>
      {step.kind === 'off' && error ? (
        <Callout intent={Intent.DANGER} role="alert">
          {error}
        </Callout>
      ) : null}

      <Dialog isOpen={step.kind === 'scan'} onClose={close} title="Turn on two-factor authentication">
        {step.kind === 'scan' ? (
          <>
            <DialogBody>
              <p>Scan this QR code with your authenticator app, or type the key below into it. Then enter the 6-digit code it shows.</p>
              <img
                src={`data:image/svg+xml;utf8,${encodeURIComponent(step.setup.qrSvg)}`}
                alt="QR code for your authenticator app"
                width={200}
                height={200}
              />
              <p>
                Key: <Code data-testid="totp-secret">{step.setup.secret}</Code>
              </p>
              <CodeField id="two-factor-code" label="Code from your app" value={code} onChange={setCode} error={error} />
            </DialogBody>
            <DialogFooter
              actions={
                <>
                  <Button text="Cancel" onClick={close} />
                  <Button intent={Intent.PRIMARY} text="Turn on" loading={enable.isPending} onClick={() => void confirmOn()} />
                </>
              }
            />
          </>
        ) : null}
      </Dialog>

      <Dialog isOpen={step.kind === 'codes'} onClose={close} title="Save your recovery codes" isCloseButtonShown={false}>
        {step.kind === 'codes' ? (
          <>
            <DialogBody>
              <p>
                Two-factor authentication is on. If you lose your phone, each of these codes signs you in once. They are shown only now:
                keep them somewhere safe.
              </p>
              <ul className={Classes.LIST_UNSTYLED} data-testid="recovery-codes">
                {step.codes.map((recovery) => (
                  <li key={recovery}>
                    <Code>{recovery}</Code>
                  </li>
                ))}
              </ul>
            </DialogBody>
            <DialogFooter actions={<Button intent={Intent.PRIMARY} text="I have saved these codes" onClick={close} />} />
          </>
        ) : null}
      </Dialog>

      <Dialog isOpen={step.kind === 'turn-off'} onClose={close} title="Turn off two-factor authentication">
        <DialogBody>
          <p>Enter a code from your authenticator app (or a recovery code), or your password.</p>
          <CodeField id="two-factor-off-code" label="Code" value={code} onChange={setCode} error={null} />
          <FormGroup label="Or your password" labelFor="two-factor-off-password">
            <InputGroup
              id="two-factor-off-password"
              type="password"
              autoComplete="current-password"
              value={password}
              onValueChange={setPassword}
            />
          </FormGroup>
          {error ? (
            <Callout intent={Intent.DANGER} role="alert">
              {error}
            </Callout>
          ) : null}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancel" onClick={close} />
              <Button intent={Intent.DANGER} text="Turn off" loading={disable.isPending} onClick={() => void confirmOff()} />
            </>
          }
        />
      </Dialog>
    </div>
  );
}
