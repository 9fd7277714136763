import type { FastifyInstance } from 'fastify';
import { stringify } from 'yaml';
import { asyncApiDocument } from '@pf/events';
import { DOCS_PREFIX } from './contract';

/**
 * The AsyncAPI 3 document of the event stream (docs/event-feed.md), beside the OpenAPI one: JSON at
 * /docs/asyncapi.json, YAML at /docs/asyncapi.yaml. Built once, from the contract in `events/`.
 */
export async function serveAsyncApi(app: FastifyInstance, topic: string): Promise<void> {
  const document = asyncApiDocument({ topic });
  const json = JSON.stringify(document, null, 2);
  const yaml = stringify(document, { aliasDuplicateObjects: false });
  // hide: a document about the API, not an operation of it (the OpenAPI test leaves hidden routes out).
  app.get(`${DOCS_PREFIX}/asyncapi.json`, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(json),
  );
  app.get(`${DOCS_PREFIX}/asyncapi.yaml`, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/yaml; charset=utf-8').send(yaml),
  );
}
