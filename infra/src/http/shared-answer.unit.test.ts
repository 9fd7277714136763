import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseConfig } from '../config';
import { createLogger } from '../logger';
import { shareAnswer, type FastifyPluginAsyncZod } from './contract';
import { createHttpServer } from './server';

// A shared answer (the read cache's) is checked and serialised once per route; any other answer every time.
const shared = shareAnswer([{ id: 1, name: 'Kept', secret: 'stripped' }]);
const changing = [{ id: 2, name: 'First', secret: 'stripped' }];
const wrong = shareAnswer([{ id: 'not a number', name: 'Broken' }]);
const list = z.array(z.object({ id: z.number(), name: z.string() }));

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/shared', { schema: { response: { 200: list } } }, async () => shared);
  app.get('/changing', { schema: { response: { 200: list } } }, async () => changing);
  app.get('/wrong', { schema: { response: { 200: list } } }, async () => wrong as never);
};

describe('answers shared between requests', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createHttpServer(parseConfig({ LOG_LEVEL: 'silent' }), createLogger('silent'));
    await app.register(routes);
    await app.ready();
  });
  afterAll(() => app.close());

  it('are sent as the answer schema declares, unknown keys left out, the same text each time', async () => {
    const first = await app.inject({ method: 'GET', url: '/shared' });
    const second = await app.inject({ method: 'GET', url: '/shared' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('[{"id":1,"name":"Kept"}]');
    expect(second.body).toBe(first.body);
  });

  it('are still checked against the answer schema (a wrong one is a 500, every time)', async () => {
    expect((await app.inject({ method: 'GET', url: '/wrong' })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/wrong' })).statusCode).toBe(500);
  });

  it('leave other answers serialised afresh on each request, so a change to them shows', async () => {
    expect((await app.inject({ method: 'GET', url: '/changing' })).body).toBe('[{"id":2,"name":"First"}]');
    changing[0]!.name = 'Second';
    expect((await app.inject({ method: 'GET', url: '/changing' })).body).toBe('[{"id":2,"name":"Second"}]');
  });
});
