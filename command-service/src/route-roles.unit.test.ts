import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { errorHandler, type SessionUser } from '@pf/infra';
import { firmRole } from '@pf/events';
import { writersOnly } from './route-roles';

/** A command service's routes in small: each role as a session, the hook, and routes declaring (or not) who may call them. */
async function commands() {
  const app = Fastify();
  app.setErrorHandler(errorHandler);
  app.decorateRequest('user', null);
  app.addHook('preValidation', async (request) => {
    const role = firmRole.parse(request.headers['x-role']);
    const user: SessionUser = {
      id: 'u1',
      firstName: null,
      lastName: null,
      email: null,
      userType: null,
      sessionId: 's1',
      firmId: 'f1',
      firmName: 'Firm',
      role,
    };
    request.user = user;
  });
  app.addHook('preValidation', writersOnly);
  const ok = async () => ({ ok: true });
  app.post('/undeclared', ok);
  app.get('/undeclared', ok);
  app.post('/writers', { config: { roles: 'writers' } }, ok);
  app.post('/own-account', { config: { roles: 'anyone-signed-in' } }, ok);
  app.post('/share', { config: { refusedAs: 'share a document outside the firm' } }, ok);
  await app.ready();
  return app;
}

// docs/decisions/firms-and-visibility.md, "Roles, on the server": each route says who may call it.
describe('who may call a command route, as its route declares', () => {
  it('gives a write that declares nothing to writers only: an auditor is refused naming the role', async () => {
    const app = await commands();
    for (const role of ['admin', 'operator'] as const) {
      expect((await app.inject({ method: 'POST', url: '/undeclared', headers: { 'x-role': role } })).statusCode).toBe(200);
    }
    const refused = await app.inject({ method: 'POST', url: '/undeclared', headers: { 'x-role': 'auditor' } });
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { message: 'Your role is Auditor: auditors read everything of the firm but cannot create, change, take over or send' },
    ]);
    expect((await app.inject({ method: 'POST', url: '/writers', headers: { 'x-role': 'auditor' } })).statusCode).toBe(403);
    await app.close();
  });

  it("lets every role call a route open to 'anyone-signed-in', and read any route", async () => {
    const app = await commands();
    expect((await app.inject({ method: 'POST', url: '/own-account', headers: { 'x-role': 'auditor' } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/undeclared', headers: { 'x-role': 'auditor' } })).statusCode).toBe(200);
    await app.close();
  });

  it('refuses in the words a route gives for what it does', async () => {
    const app = await commands();
    const refused = await app.inject({ method: 'POST', url: '/share', headers: { 'x-role': 'auditor' } });
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { message: 'Your role is Auditor: auditors read everything of the firm but cannot share a document outside the firm' },
    ]);
    expect((await app.inject({ method: 'POST', url: '/share', headers: { 'x-role': 'operator' } })).statusCode).toBe(200);
    await app.close();
  });
});
