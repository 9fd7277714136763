import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@pf/infra/testing';
import { startSingleNode, type RunningServer } from './server';
import { ApiClient } from './testing/api-client';
import { testServerEnv } from './testing/server-env';

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/**
 * Traces (docs/operations/observability.md "Traces"): an HTTP server here stands in for an OpenTelemetry collector
 * (none can be installed on the test machine) and decodes the OTLP/HTTP JSON the exporter sends it.
 */
describe('traces of the single node', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let collector: http.Server;
  const spans: ReceivedSpan[] = [];

  beforeAll(async () => {
    collector = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/v1/traces') {
          const body = JSON.parse(Buffer.concat(chunks).toString()) as {
            resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[];
          };
          for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    process.env.OTEL_BSP_SCHEDULE_DELAY = '100';
    database = await createTestDatabase();
    const { port } = collector.address() as AddressInfo;
    server = await startSingleNode(testServerEnv(database.url, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }));
    await server.caughtUp;
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
    collector?.close();
  });

  it('follows one command from the request through decide and append to the projector and the gateway', async () => {
    const alice = await ApiClient.signIn(server.url);
    const created = await alice.post('/api/agents', { name: 'Amelia Hart', type: 'borrower' });
    expect(created.status).toBe(201);
    const request = async () => {
      for (;;) {
        const found = spans.find((span) => span.name === 'POST /api/agents');
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const root = await request();
    const inTrace = async (name: string) => {
      for (;;) {
        const found = spans.find((span) => span.traceId === root.traceId && span.name === name);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const decide = await inTrace('decide CreateAgent');
    expect(decide.parentSpanId).toBe(root.spanId);
    const append = await inTrace('append');
    expect(append.parentSpanId).toBe(decide.spanId);
    expect((await inTrace('read-model projector handles')).parentSpanId).toBe(decide.spanId);
    expect((await inTrace('realtime-gateway handles')).parentSpanId).toBe(decide.spanId);
  });
});
