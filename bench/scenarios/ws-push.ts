import WebSocket from 'ws';
import type { ConversationView } from '@pf/events';
import { call, expectStatus, type BenchUser } from '../lib/session';
import { distribution, type Distribution } from '../lib/stats';

export interface WsPushResult {
  readonly ws_push_ms: Distribution;
  readonly ws_push_from_request_ms: Distribution;
  readonly ws_sockets: number;
  readonly ws_missed_pushes: number;
}

interface Watcher {
  readonly socket: WebSocket;
  /** The probe this socket waits for and when it arrived. */
  arrivals: Map<string, number>;
}

async function openWatcher(wsUrl: string, origin: string, user: BenchUser, conversationId: number): Promise<Watcher> {
  const socket = new WebSocket(wsUrl, { headers: { cookie: user.cookie, origin } });
  const watcher: Watcher = { socket, arrivals: new Map() };
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const acked = new Promise<void>((resolve) => {
    // Only the probe's text is looked for in the raw frame: parsing 1,000 copies would time the client, not the server.
    socket.on('message', (data) => {
      const text = (data as Buffer).toString(); // ws hands a text frame over as one Buffer (binaryType nodebuffer)
      const at = performance.now();
      if (text.includes('"type":"ack"') && text.includes('"requestId":"sub"')) resolve();
      const probe = /bench probe (\d+)/.exec(text);
      if (probe && text.includes('message_created')) watcher.arrivals.set(probe[1]!, at);
    });
  });
  socket.send(JSON.stringify({ type: 'subscribe', requestId: 'sub', conversationId }));
  await acked;
  return watcher;
}

/**
 * One user, `sockets` sockets following the same conversation (in manual mode); messages are sent one
 * at a time through POST /api/conversations/:id/messages. Latency is from the command's answer (its
 * acceptance) to the push's arrival on each socket; negative when the push overtook the answer.
 */
export async function measureWsPush(options: {
  productUrl: string;
  user: BenchUser;
  sockets: number;
  messages: number;
  /** Started once the sockets are settled: messages are sent while it runs (and at least `messages` of them). */
  during?: () => Promise<unknown>;
}): Promise<WsPushResult> {
  const { productUrl: url, user } = options;
  const seeded = expectStatus(await call(url, user, 'POST', '/api/seed-demo', {}), 201, 'seed-demo');
  const list = expectStatus(
    await call<ConversationView[]>(url, user, 'GET', '/api/conversations', undefined, seeded.position),
    200,
    'conversations',
  );
  const conversationId = list.body[0]!.id;
  expectStatus(await call(url, user, 'PATCH', `/api/conversations/${conversationId}`, { isManualMode: true }), 200, 'manual mode');

  const wsUrl = `${url.replace(/^http/, 'ws')}/ws`;
  const watchers: Watcher[] = [];
  for (let i = 0; i < options.sockets; i += 50) {
    const size = Math.min(50, options.sockets - i);
    watchers.push(...(await Promise.all(Array.from({ length: size }, () => openWatcher(wsUrl, url, user, conversationId)))));
  }

  // A new socket holds live pushes for its resume window (250 ms); measure the steady state after it.
  await new Promise((resolve) => setTimeout(resolve, 500));

  const fromAnswer: number[] = [];
  const fromRequest: number[] = [];
  let missed = 0;
  let running = false;
  const during = options.during?.();
  if (during) {
    running = true;
    void during.finally(() => (running = false)).catch(() => undefined);
  }
  for (let n = 0; n < options.messages || running; n++) {
    const probe = String(n);
    const sentAt = performance.now();
    expectStatus(
      await call(url, user, 'POST', `/api/conversations/${conversationId}/messages`, { content: `bench probe ${n}` }),
      201,
      'send message',
    );
    const acceptedAt = performance.now();
    const deadline = acceptedAt + 5000;
    while (watchers.some((w) => !w.arrivals.has(probe)) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    for (const watcher of watchers) {
      const at = watcher.arrivals.get(probe);
      if (at === undefined) missed++;
      else {
        fromAnswer.push(at - acceptedAt);
        fromRequest.push(at - sentAt);
      }
    }
  }
  await during;
  await Promise.all(
    watchers.map(
      (w) =>
        new Promise<void>((resolve) => {
          w.socket.once('close', () => resolve());
          w.socket.close();
        }),
    ),
  );
  return {
    ws_push_ms: distribution(fromAnswer),
    ws_push_from_request_ms: distribution(fromRequest),
    ws_sockets: watchers.length,
    ws_missed_pushes: missed,
  };
}
