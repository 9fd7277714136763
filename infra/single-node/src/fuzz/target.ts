import { startSingleNode, type RunningServer } from '../server';
import { ApiClient } from '../testing/api-client';
import type { FuzzRoute, FuzzTarget } from './report';

/**
 * A real single node to fuzz, with every route it declares, a signed-in user with demo data (one
 * conversation in manual mode, so socket messages and message commands reach the deciders).
 */
export async function startFuzzTarget(
  env: Record<string, string>,
): Promise<{ server: RunningServer; target: FuzzTarget; client: ApiClient }> {
  const server = await startSingleNode(env);
  // Collected by an onRoute hook as the routes were added (infra's registeredRoutes), so routes added later are fuzzed too.
  // The built console's files (hidden from /docs, one route per file when it is built) take no input: left out, so
  // a built console does not drown the API in the sample.
  const routes: FuzzRoute[] = server.routes.filter((route) => !route.schema?.hide).map(({ method, url }) => ({ method, url }));
  await server.caughtUp;
  const client = await ApiClient.signIn(server.url);
  expectStatus(await client.post('/api/seed-demo'), 201);
  const conversations = (await readList(client, '/api/conversations')) as { id: number }[];
  if (conversations[0]) expectStatus(await client.patch(`/api/conversations/${conversations[0].id}`, { isManualMode: true }), 200);
  const agents = (await readList(client, '/api/agents')) as { id: number }[];
  // A deal between two agents of the user's own, made for the fuzzing, to upload documents to.
  const agent = async (type: 'borrower' | 'lender') => {
    const created = await client.post<{ id: number }>('/api/agents', { name: `Fuzz ${type}`, type });
    expectStatus(created, 201);
    return created.body.id;
  };
  const deal = await client.post<{ id: string }>('/api/deals', {
    borrowerAgentId: await agent('borrower'),
    lenderAgentId: await agent('lender'),
    propertyAddress: '1 Fuzz Street, London',
    propertyValue: 400_000,
    loanAmount: 300_000,
    interestRate: 4.25,
    termYears: 25,
  });
  expectStatus(deal, 201);
  const token = await client.post<{ token: string }>('/api/auth/tokens', { name: 'Fuzz feed', scopes: ['events:read'] });
  expectStatus(token, 201);
  // The fuzzing sends the last position as x-after-position: the read models have passed it before it starts.
  await readList(client, '/api/agents');
  return {
    server,
    client,
    target: {
      url: server.url,
      routes,
      cookie: client.cookie,
      agentIds: agents.map((agent) => agent.id),
      conversationIds: conversations.map((conversation) => conversation.id),
      position: client.lastPosition ?? '0:0',
      dealId: deal.body.id,
      feedToken: token.body.token,
    },
  };
}

/**
 * A list read during set-up: on a loaded machine the read may wait past READ_WAIT_TIMEOUT_MS for the projector
 * and answer 503 (as it should); set-up asks again, up to 30 s, rather than fuzzing without ids.
 */
async function readList(client: ApiClient, path: string): Promise<unknown[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await client.get(path);
    // Array.isArray narrows to any[]: the items stay unknown to whoever reads them.
    if (answer.status === 200 && Array.isArray(answer.body)) return answer.body as unknown[];
    if (answer.status !== 503 || Date.now() > deadline)
      throw new Error(`Fuzz set-up could not read ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectStatus(response: { status: number; body: unknown }, status: number): void {
  if (response.status !== status)
    throw new Error(`Fuzz set-up expected ${status}, got ${response.status}: ${JSON.stringify(response.body)}`);
}

/** After the fuzzing: the node still takes a command, and its read models still follow (the projector is alive). */
export async function stillHealthy(server: RunningServer, client: ApiClient): Promise<string[]> {
  const problems: string[] = [];
  const health = await fetch(`${server.url}/healthz`);
  if (health.status !== 200) problems.push(`/healthz answered ${health.status}`);
  const created = await client.post('/api/agents', { name: 'After The Fuzz', type: 'lender' });
  if (created.status !== 201) problems.push(`a valid command answered ${created.status}`);
  const read = await client.get('/api/agents'); // sends the command's x-position: waits for the projector
  if (read.status !== 200 || !(read.body as { name: string }[]).some((agent) => agent.name === 'After The Fuzz')) {
    problems.push(`the read models did not catch up with a command (${read.status})`);
  }
  return problems;
}
