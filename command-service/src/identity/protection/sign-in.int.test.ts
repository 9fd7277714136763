import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHttpServer, createLogger, openServiceContext, parseConfig, ProtectionStore, type OpenedContext } from '@pf/infra';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { hashPassword } from './secrets';
import { signInRoutes } from './sign-in-routes';

const PASSWORD = 'a long and careful passphrase';
const EMAIL = 'owner@example.co.uk';

/** An argon2 hash's algorithm and cost (memory, passes, lanes): what its verification costs, without its salt. */
const costOf = (hash: string) => hash.split('$').slice(1, 4).join('$');

/**
 * docs/decisions/sign-in-secrets.md, "Wrong passwords and codes": an email no protected account has is answered as
 * slowly as a wrong password, with the same words. Held by what the sign-in does rather than by a clock: for an
 * unknown email it verifies a password against a hash of the same cost as an account's, once, as it does for a
 * wrong password.
 */
describe('sign-in: an unknown email is answered as a wrong password is', () => {
  let database: TestDatabase;
  let context: OpenedContext;
  let app: FastifyInstance;
  let accountHash = '';

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = parseConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', AUTOMATION: 'off' });
    const log = createLogger('warn', 'sign-in-test');
    context = await openServiceContext(config, log, database.url, []);
    app = await createHttpServer(config, log);
    await app.register(signInRoutes, context);
    await app.ready();
    const { user } = await context.sessions.signInGuest('sign-in test');
    accountHash = await hashPassword(PASSWORD);
    await new ProtectionStore(context.pool).setPassword(user.id, accountHash, EMAIL);
  });

  afterAll(async () => {
    await app?.close();
    await context?.close();
    await database?.drop();
  });

  /** A sign-in attempt: its answer, and each password verification it ran (the hash it verified against). */
  async function attempt(email: string, password: string) {
    const verify = vi.spyOn(argon2, 'verify');
    try {
      const answer = await app.inject({ method: 'POST', url: '/api/auth/sign-in', payload: { email, password } });
      return { status: answer.statusCode, body: answer.json<unknown>(), verified: verify.mock.calls.map(([hash]) => hash) };
    } finally {
      verify.mockRestore();
    }
  }

  it('verifies one password against a hash of the same cost, and answers in the same words', async () => {
    const wrongPassword = await attempt(EMAIL, 'not the passphrase');
    const unknownEmail = await attempt('nobody@example.co.uk', 'not the passphrase');

    expect(wrongPassword.verified).toEqual([accountHash]);
    expect(unknownEmail.verified).toHaveLength(1);
    expect(costOf(unknownEmail.verified[0]!)).toBe(costOf(accountHash));
    expect(costOf(accountHash)).toMatch(/^argon2id\$v=19\$m=\d+,p=\d+,t=\d+$/);

    expect(unknownEmail.status).toBe(401);
    expect([unknownEmail.status, unknownEmail.body]).toEqual([wrongPassword.status, wrongPassword.body]);
  });
});
