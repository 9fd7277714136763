import autocannon from 'autocannon';
import { round } from '../lib/stats';

export interface ApiReadResult {
  readonly api_read_ratio: number;
  readonly api_agents_req_per_s: number;
  readonly bare_agents_req_per_s: number;
  readonly api_agents_latency_p50_ms: number;
  readonly bare_agents_latency_p50_ms: number;
}

async function load(url: string, headers: Record<string, string>, connections: number, duration: number) {
  const result = await autocannon({ url, headers, connections, duration });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return result;
}

/**
 * GET /api/agents (session lookup, read-model query, 50 agents) against a bare Fastify route that
 * answers the same JSON from memory: same connections, same duration, one after the other, each warmed first.
 */
export async function measureApiRead(options: {
  productUrl: string;
  cookie: string;
  baselineUrl: string;
  connections: number;
  seconds: number;
}): Promise<ApiReadResult> {
  const product = `${options.productUrl}/api/agents`;
  const bare = `${options.baselineUrl}/bare/agents`;
  const headers = { cookie: options.cookie };
  await load(product, headers, options.connections, 1);
  await load(bare, {}, options.connections, 1);
  const ours = await load(product, headers, options.connections, options.seconds);
  const theirs = await load(bare, {}, options.connections, options.seconds);
  return {
    api_read_ratio: round(ours.requests.average / theirs.requests.average, 3),
    api_agents_req_per_s: round(ours.requests.average, 0),
    bare_agents_req_per_s: round(theirs.requests.average, 0),
    api_agents_latency_p50_ms: ours.latency.p50,
    bare_agents_latency_p50_ms: theirs.latency.p50,
  };
}
