import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config';
import { createLogger } from '../logger';
import { createHttpServer } from './server';

/** The security headers of every answer (server.ts), read over a real socket. */
describe('security headers', () => {
  let app: FastifyInstance;
  let url: string;

  beforeAll(async () => {
    app = await createHttpServer(
      parseConfig({ DATABASE_URL: 'postgres://unused@localhost/unused' }),
      createLogger('silent', 'headers-test'),
    );
    app.get('/hello', async () => ({ hello: 'world' }));
    app.post('/hello', async () => ({ hello: 'world' }));
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
  });

  const policy = [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "img-src 'self' data:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self' ws: wss:",
  ].join(';');

  it.each([
    ['an answer', '/hello', 200],
    ['an unknown route', '/nowhere', 404],
  ])('are on %s', async (_, path, status) => {
    const answer = await fetch(`${url}${path}`);
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-security-policy')).toBe(policy);
    expect(answer.headers.get('referrer-policy')).toBe('same-origin');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    // HSTS belongs to the TLS terminator in front.
    expect(answer.headers.get('strict-transport-security')).toBeNull();
    await answer.arrayBuffer();
  });

  it('are on an answer refused before its route runs (a body that is not JSON)', async () => {
    const answer = await fetch(`${url}/hello`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-security-policy')).toBe(policy);
    await answer.arrayBuffer();
  });
});
