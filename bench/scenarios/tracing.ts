import http from 'node:http';
import type pg from 'pg';
import type { EventStore, SessionStore } from '@pf/infra';
import { startChild, singleNodeEnv } from '../lib/children';
import { benchUser } from '../lib/session';
import { round } from '../lib/stats';
import { measureRoundtrips } from './roundtrip';
import { measureWsPush } from './ws-push';

/**
 * What tracing costs (docs/operations/observability.md "Traces"): the same node on the same database with tracing off
 * and with spans exported by OTLP to a local sink (a server here that answers every export with 200 and counts them:
 * it stands in for a collector, which cannot be installed on this machine), the command round trip and the push
 * measured on each, alternately, three times; the headline is each p99's ratio of on to off, from the pairs' medians.
 */
export async function measureTracingCost(options: {
  databaseUrl: string;
  untracedUrl: string;
  baselineUrl: string;
  pool: pg.Pool;
  store: EventStore;
  sessions: SessionStore;
  clients: number;
  seconds: number;
  sockets: number;
  messages: number;
}) {
  let exports = 0;
  const sink = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const { port } = sink.address() as { port: number };
  const traced = await startChild('single-node', {
    ...singleNodeEnv(options.databaseUrl),
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
  });
  try {
    const measure = async (url: string) => {
      const roundtrip = await measureRoundtrips({ ...options, productUrl: url });
      const push = await measureWsPush({
        productUrl: url,
        user: await benchUser(options.sessions),
        sockets: options.sockets,
        messages: options.messages,
      });
      return { roundtripP99: roundtrip.command_roundtrip_ms.p99, pushP99: push.ws_push_ms.p99 };
    };
    const pairs = [];
    for (let repetition = 0; repetition < 3; repetition++) {
      const off = await measure(options.untracedUrl);
      const on = await measure(traced.url);
      pairs.push({ off, on, roundtrip: on.roundtripP99 / off.roundtripP99, push: on.pushP99 / off.pushP99 });
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    return {
      tracing_roundtrip_p99_ratio: round(median(pairs.map((pair) => pair.roundtrip)), 3),
      tracing_push_p99_ratio: round(median(pairs.map((pair) => pair.push)), 3),
      tracing_runs: pairs,
      tracing_exports_received: exports,
    };
  } finally {
    await traced.close();
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  }
}
