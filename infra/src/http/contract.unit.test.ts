import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createAgentInput, errorAnswers, idParams, type ApiError } from '@pf/events';
import { parseConfig } from '../config';
import { createLogger } from '../logger';
import type { FastifyPluginAsyncZod } from './contract';
import { createHttpServer } from './server';

// No I/O beyond Fastify's in-process inject: the shell's validation, serialisation and docs alone.
const echo: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/things/:id',
    {
      schema: {
        params: idParams('Thing'),
        querystring: z.object({
          days: z.coerce.number({ error: 'days must be a whole number' }).int().max(366, { error: 'days is at most 366' }),
        }),
        body: createAgentInput,
        response: { 200: z.object({ id: z.number(), days: z.number(), name: z.string() }), ...errorAnswers(400) },
      },
    },
    async (request) => ({ id: request.params.id, days: request.query.days, name: request.body.name, secret: 'stripped' }),
  );
};

/** The part of the OpenAPI document this test reads. */
type SchemaContent = { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
type OpenApiDocument = {
  paths: Record<
    string,
    { post: { parameters: { in: string; name: string }[]; requestBody: SchemaContent; responses: Record<string, SchemaContent> } }
  >;
};

describe('the HTTP shell validates and documents routes with their zod schemas', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await createHttpServer(parseConfig({ LOG_LEVEL: 'silent' }), createLogger('silent'));
    await app.register(echo);
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (url: string, payload?: object) => app.inject({ method: 'POST', url, payload });

  it('names the field and the rule for params, querystring and body, as zod errors are described elsewhere', async () => {
    expect((await post('/api/things/abc?days=1', { name: 'A', type: 'borrower' })).json()).toEqual({
      message: 'id: Thing id must be a positive whole number, not "abc"',
    });
    expect((await post('/api/things/3?days=400', { name: 'A', type: 'borrower' })).json()).toEqual({
      message: 'days: days is at most 366',
    });
    const body = await post('/api/things/3?days=1', { name: ' ', type: 'banker', criteria: { loanTermMin: 'x'.repeat(101) } });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toEqual({
      message:
        'name: Agent name is required; type: Please select an agent type; criteria.loanTermMin: A criterion is at most 100 characters',
    });
  });

  it('treats an absent body as an empty object, so the answer lists the required fields', async () => {
    const answer = await post('/api/things/3?days=1');
    expect(answer.statusCode).toBe(400);
    expect(answer.json<ApiError>().message).toContain('name: Agent name is required');
  });

  it('passes parsed values to the handler and serialises only what the answer schema declares', async () => {
    const answer = await post('/api/things/007?days=30', { name: '  Amelia  ', type: 'borrower' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ id: 7, days: 30, name: 'Amelia' });
  });

  it('serves the OpenAPI document at /docs/json with the route and its schemas, and the UI at /docs', async () => {
    const document = (await app.inject({ method: 'GET', url: '/docs/json' })).json<OpenApiDocument>();
    const operation = document.paths['/api/things/{id}']!.post;
    expect(operation.parameters.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['path:id', 'query:days']);
    expect(Object.keys(operation.requestBody.content['application/json']!.schema.properties)).toContain('criteria');
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400']);
    expect(operation.responses['400']!.content['application/json']!.schema.properties).toHaveProperty('message');
    const ui = await app.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger-ui');
  });
});
