import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodObject } from 'zod';
import { $ZodType } from 'zod/v4/core';
import { apiError } from '@pf/events';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from './server';
import { testServerEnv } from './testing/server-env';

interface Operation {
  parameters?: { in: string; name: string; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const PARTS = ['params', 'querystring', 'body', 'headers'] as const;

/**
 * Every route the single node answers (collected by the HTTP shell's onRoute hook, so routes added later are
 * covered without touching this test) is in /docs/json with its params, query, body and each answer.
 */
describe('/docs describes every route with its schemas', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startSingleNode(testServerEnv(database.url));
    const document = await fetch(`${server.url}/docs/json`);
    expect(document.status).toBe(200);
    paths = ((await document.json()) as { paths: typeof paths }).paths;
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const documented = () => server.routes.filter((route) => !route.schema?.hide);

  it('finds the API routes of both services and identity among them', () => {
    const names = documented().map((route) => `${route.method} ${route.url}`);
    for (const expected of [
      'POST /api/agents',
      'GET /api/agents/:id',
      'PATCH /api/conversations/:id',
      'GET /api/login',
      'GET /api/analytics/daily',
      'GET /healthz',
    ]) {
      expect(names).toContain(expected);
    }
  });

  /** The shared {message}, or it extended with details (apiError.extend keeps the very same message schema). */
  const isSharedError = (answer: unknown) =>
    answer === apiError || (answer instanceof ZodObject && (answer.shape as Record<string, unknown>).message === apiError.shape.message);

  it('declares every part of every route as a zod schema, and each error as the shared {message}', () => {
    const problems: string[] = [];
    for (const route of documented()) {
      const name = `${route.method} ${route.url}`;
      const schema = route.schema;
      if (!schema?.response) {
        problems.push(`${name}: no response schemas`);
        continue;
      }
      if (route.url.includes(':') && !schema.params) problems.push(`${name}: path params not declared`);
      for (const part of PARTS) {
        if (schema[part] !== undefined && !(schema[part] instanceof $ZodType)) problems.push(`${name}: ${part} is not a zod schema`);
      }
      for (const [code, answer] of Object.entries(schema.response as Record<string, unknown>)) {
        if (!(answer instanceof $ZodType)) problems.push(`${name}: answer ${code} is not a zod schema`);
        if (Number(code) >= 400 && !isSharedError(answer)) problems.push(`${name}: answer ${code} is not the shared error schema`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('lists each route in /docs/json with its path params, query, body and every answer code', () => {
    const problems: string[] = [];
    for (const route of documented()) {
      const name = `${route.method} ${route.url}`;
      const operation = paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!operation) {
        problems.push(`${name}: missing from /docs/json`);
        continue;
      }
      const parameters = operation.parameters ?? [];
      for (const param of route.url.match(/:(\w+)/g) ?? []) {
        if (!parameters.some((p) => p.in === 'path' && p.name === param.slice(1) && p.schema))
          problems.push(`${name}: path ${param} undocumented`);
      }
      if (route.schema?.querystring && !parameters.some((p) => p.in === 'query')) problems.push(`${name}: query undocumented`);
      if (route.schema?.body && !operation.requestBody?.content['application/json']?.schema) problems.push(`${name}: body undocumented`);
      const declared = Object.keys(route.schema?.response ?? {}).sort();
      expect(Object.keys(operation.responses).sort(), name).toEqual(declared);
      for (const code of declared) {
        // A redirect (302, or 303 after a POST such as sign-out) has no body: its Location header is the answer.
        if (code !== '302' && code !== '303' && !operation.responses[code]?.content?.['application/json']?.schema)
          problems.push(`${name}: answer ${code} has no schema`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('serves the documentation page at /docs', async () => {
    const page = await fetch(`${server.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
  });
});
