import { randomUUID } from 'node:crypto';
import { errorAnswers, signInInput, signInView, streams } from '@pf/events';
import { DEVICE_COOKIE, ProtectionStore, SESSION_COOKIE, SignInThrottle, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { handleCommand } from '../../handle-command';
import { setSignInCookies } from '../cookies';
import { protectionDecider } from './protection';
import { Verifier } from './verify';

/**
 * Signing in to a protected account (docs/behaviour/sign-in.md): email and password, then, with two-factor on,
 * a code of the app or a recovery code. Wrong answers are counted per account and per client address and
 * refused for a while once too many (SignInThrottle); besides, the per-client limit of every write applies.
 * Only without an identity provider: with one, the provider signs people in.
 */
export const signInRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, { pool, store, sessions, config }) => {
  const protections = new ProtectionStore(pool);
  const verifier = new Verifier(protections, new SignInThrottle(pool));

  app.post(
    '/api/auth/sign-in',
    {
      schema: {
        summary: 'Sign in to a protected account: email and password, then the code when two-factor is on',
        body: signInInput,
        response: { 200: signInView, ...errorAnswers(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { email, password, code } = request.body;
      const protection = await protections.byEmail(email);
      if (!protection) return verifier.unknownAccount(request.ip, password);
      await verifier.password(protection, password, request.ip, false, 'The email or password is not right');
      const { userId } = protection;
      if (protection.totpSecret !== null) {
        if (code === undefined) return { status: 'code-required' as const };
        const factor = await verifier.secondFactor(protection, code, request.ip, false);
        if (factor.kind === 'recovery-code') {
          const metadata = { actor: { kind: 'user' as const, userId }, correlationId: randomUUID(), causationId: null };
          await handleCommand(
            store,
            streams.user(userId),
            protectionDecider,
            { type: 'UseRecoveryCode', userId, remaining: factor.remaining },
            metadata,
          );
        }
      }
      await verifier.succeeded(userId);
      await sessions.revoke(request.cookies[SESSION_COOKIE]);
      const signedIn = await sessions.signInVerified(userId, request.headers['user-agent'], request.cookies[DEVICE_COOKIE]);
      setSignInCookies(request, reply, signedIn, config.SESSION_TTL_HOURS);
      return { status: 'signed-in' as const };
    },
  );
};
