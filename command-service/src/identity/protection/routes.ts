import {
  changePasswordInput,
  disableTwoFactorInput,
  enableTwoFactorInput,
  errorAnswers,
  recoveryCodesView,
  securityView,
  SIGNED_IN_ERRORS,
  streams,
  twoFactorSetupView,
  type SecurityView,
} from '@pf/events';
import {
  Conflict,
  Invalid,
  oidcSettings,
  ProtectionStore,
  recoveryCodeHash,
  SignInThrottle,
  type FastifyPluginAsyncZod,
  type ServiceContext,
  type SessionUser,
} from '@pf/infra';
import { handleCommand } from '../../handle-command';
import { signedIn, withPosition } from '../../http-helpers';
import { protectionDecider } from './protection';
import { hashPassword, newRecoveryCodes, newTwoFactorSecret, totpStep } from './secrets';
import { Verifier } from './verify';

const WRITE_ERRORS = [...SIGNED_IN_ERRORS, 404, 409] as const;

/**
 * Settings → Security: Change Password and the two-factor toggle (docs/behaviour/settings.md). Each change is
 * checked here against the secrets (ProtectionStore), decided on the user's stream (protection.ts) and then
 * stored; every other session of the account ends when its password or second factor changes. With an identity
 * provider configured the provider protects the account, and these answer 409.
 */
export const protectionRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, context) => {
  const { pool, store, sessions } = context;
  const protections = new ProtectionStore(pool);
  const verifier = new Verifier(protections, new SignInThrottle(pool));
  const viaProvider = oidcSettings(context.config) !== null;

  const viewOf = async (userId: string): Promise<SecurityView> => {
    const protection = await protections.of(userId);
    return {
      signIn: viaProvider ? 'provider' : 'guest',
      email: protection?.email ?? null,
      password: protection !== null,
      twoFactor: protection?.totpSecret != null,
      recoveryCodesLeft: protection?.totpSecret != null ? protection.recoveryCodesLeft : 0,
    };
  };
  const guestOnly = () => {
    if (viaProvider) throw new Conflict('You sign in through your identity provider: it protects this account');
  };
  const decided = (
    user: SessionUser,
    metadata: Parameters<typeof handleCommand>[4],
    command: Parameters<typeof protectionDecider.decide>[0],
  ) => handleCommand(store, streams.user(user.id), protectionDecider, command, metadata);

  app.get(
    '/api/auth/security',
    {
      schema: {
        summary: 'How your account signs in: password and two-factor',
        response: { 200: securityView, ...errorAnswers(...SIGNED_IN_ERRORS) },
      },
    },
    async (request) => viewOf(signedIn(request).user.id),
  );

  app.put(
    '/api/auth/password',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Set or change your password (the first names your sign-in email; a change asks for the current one)',
        body: changePasswordInput,
        response: { 200: securityView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      guestOnly();
      const { user, metadata } = signedIn(request);
      const { email, current, password } = request.body;
      const protection = await protections.of(user.id);
      if (protection) {
        if (!current) throw new Invalid('current: Enter your current password');
        await verifier.password(protection, current, request.ip, true, 'current: Your current password is not right');
      } else if (!email) {
        throw new Invalid('email: Enter the email you will sign in with');
      }
      const hash = await hashPassword(password);
      const handled = await decided(user, metadata, { type: 'ChangePassword', userId: user.id });
      await protections.setPassword(user.id, hash, protection ? undefined : email);
      await sessions.revokeOthers(user.id, user.sessionId);
      return withPosition(reply, handled.position).send(await viewOf(user.id));
    },
  );

  app.post(
    '/api/auth/two-factor/setup',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Start turning two-factor on: a new secret and its QR code (on once a code confirms it)',
        response: { 200: twoFactorSetupView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request) => {
      guestOnly();
      const { user } = signedIn(request);
      const protection = await protections.of(user.id);
      if (!protection) throw new Conflict('Set a password first: two-factor authentication adds to it');
      if (protection.totpSecret) throw new Conflict('Two-factor authentication is already on');
      const setup = await newTwoFactorSecret(protection.email);
      await protections.setPendingTotp(user.id, setup.secret);
      return setup;
    },
  );

  app.post(
    '/api/auth/two-factor',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Turn two-factor on with a code from the app: answers the recovery codes, shown this once',
        body: enableTwoFactorInput,
        response: { 200: recoveryCodesView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      guestOnly();
      const { user, metadata } = signedIn(request);
      const protection = await protections.of(user.id);
      if (!protection?.totpPendingSecret) throw new Conflict('Start again: scan a new QR code first');
      const step = totpStep(protection.totpPendingSecret, request.body.code);
      if (step === null)
        throw new Invalid('code: That code is not right: enter the 6 digits your authenticator app shows now for Property Finance');
      const codes = newRecoveryCodes();
      const handled = await decided(user, metadata, { type: 'EnableTwoFactor', userId: user.id, recoveryCodes: codes.length });
      await protections.enableTotp(user.id, step, codes.map(recoveryCodeHash));
      await sessions.revokeOthers(user.id, user.sessionId);
      return withPosition(reply, handled.position).send({ codes });
    },
  );

  app.delete(
    '/api/auth/two-factor',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Turn two-factor off, with a code (or a recovery code) or your password',
        body: disableTwoFactorInput,
        response: { 200: securityView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      guestOnly();
      const { user, metadata } = signedIn(request);
      const protection = await protections.of(user.id);
      if (!protection?.totpSecret) throw new Conflict('Two-factor authentication is already off');
      const { code, password } = request.body;
      let confirmedWith: 'code' | 'recovery-code' | 'password' = 'password';
      if (code !== undefined) confirmedWith = (await verifier.secondFactor(protection, code, request.ip, true)).kind;
      else await verifier.password(protection, password ?? '', request.ip, true, 'password: Your password is not right');
      await verifier.succeeded(user.id);
      const handled = await decided(user, metadata, { type: 'DisableTwoFactor', userId: user.id, confirmedWith });
      await protections.disableTotp(user.id);
      return withPosition(reply, handled.position).send(await viewOf(user.id));
    },
  );
};
