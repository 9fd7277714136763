import WebSocket from 'ws';
import { serverMessage, type ClientMessage, type ServerMessage } from '@pf/events';

/** A real ws client for tests: records every server message and waits for the ones a test expects. */
export interface TestSocket {
  readonly ws: WebSocket;
  readonly received: ServerMessage[];
  /** When each received message arrived (performance.now()), index for index. */
  readonly arrivedAt: number[];
  send(message: ClientMessage | string): void;
  next<T extends ServerMessage>(match: (message: ServerMessage) => message is T, timeoutMs?: number): Promise<T>;
  next(match: (message: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  /** Sends a message with a fresh requestId and waits for its ack or error. */
  request(message: ClientMessage): Promise<Extract<ServerMessage, { type: 'ack' | 'error' }>>;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

let requests = 0;

function openSocket(url: string, headers: { cookie?: string; origin?: string }, options: { autoPong?: boolean } = {}) {
  const ws = new WebSocket(url, { headers: headers as Record<string, string>, autoPong: options.autoPong ?? true });
  const received: ServerMessage[] = [];
  const arrivedAt: number[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  ws.on('message', (data) => {
    arrivedAt.push(performance.now());
    received.push(serverMessage.parse(JSON.parse((data as Buffer).toString())));
    for (const waiter of waiters) waiter();
  });
  const next = (match: (message: ServerMessage) => boolean, timeoutMs = 5000) => {
    let seen = 0;
    return new Promise<ServerMessage>((resolve, reject) => {
      const check = () => {
        for (; seen < received.length; seen++) {
          if (match(received[seen]!)) {
            cleanup();
            return resolve(received[seen]!);
          }
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No matching socket message within ${timeoutMs} ms; got ${JSON.stringify(received.slice(-5))}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  };
  const socket: TestSocket = {
    ws,
    received,
    arrivedAt,
    closed,
    send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
    next: next,
    async request(message) {
      const requestId = `t${++requests}`;
      const answer = next((reply) => (reply.type === 'ack' || reply.type === 'error') && reply.requestId === requestId);
      ws.send(JSON.stringify({ ...message, requestId }));
      return (await answer) as Extract<ServerMessage, { type: 'ack' | 'error' }>;
    },
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close();
      await closed;
    },
  };
  return socket;
}

/** Opens a socket and resolves once it is open; rejects with the HTTP status when the upgrade is refused. */
export function connect(url: string, headers: { cookie?: string; origin?: string }, options: { autoPong?: boolean } = {}) {
  const socket = openSocket(url, headers, options);
  return new Promise<TestSocket>((resolve, reject) => {
    socket.ws.once('open', () => resolve(socket));
    socket.ws.once('unexpected-response', (_request, response) => reject(new RefusedUpgrade(response.statusCode ?? 0)));
    socket.ws.once('error', reject);
  });
}

export class RefusedUpgrade extends Error {
  constructor(readonly status: number) {
    super(`Upgrade refused with ${status}`);
  }
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
