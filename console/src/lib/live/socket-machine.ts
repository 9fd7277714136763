import { backoffDelay, type ClientMessage } from '@pf/events';
import { assign, fromCallback, sendTo, setup } from 'xstate';

export type SocketEvent =
  { type: 'OPENED' } | { type: 'CLOSED' } | { type: 'RECEIVED'; data: string } | { type: 'SEND'; message: ClientMessage };

/** The wait before reconnect attempt n (1-based): the platform's one backoff, from 0.5 s doubling to 30 s, jittered so tabs do not stampede. */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  return backoffDelay(attempt - 1, { baseMs: 500, maxMs: 30_000 }, random);
}

/** The browser's WebSocket, as an actor: it reports opening, closing and data, and sends what it is given. */
const browserSocket = fromCallback<SocketEvent, { url: string }>(({ input, sendBack, receive }) => {
  const ws = new WebSocket(input.url);
  ws.onopen = () => sendBack({ type: 'OPENED' });
  ws.onclose = () => sendBack({ type: 'CLOSED' });
  ws.onmessage = (event) => sendBack({ type: 'RECEIVED', data: String(event.data) });
  receive((event) => {
    if (event.type === 'SEND' && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(event.message));
  });
  return () => {
    ws.onclose = null;
    ws.close();
  };
});

/**
 * The life of the /ws connection: connecting, open, and reconnecting with backoff. On every open the owner
 * re-subscribes and resumes from the last position it saw (the `connected` action), so nothing is missed.
 */
export const socketMachine = setup({
  types: {
    context: {} as { url: string; attempt: number },
    events: {} as SocketEvent,
    input: {} as { url: string },
  },
  actors: { socket: browserSocket },
  actions: {
    connected: (_, _params: { reconnect: boolean }) => undefined,
    received: (_, _params: { data: string }) => undefined,
    disconnected: () => undefined,
  },
  delays: {
    backoff: ({ context }) => reconnectDelay(context.attempt),
  },
}).createMachine({
  id: 'socket',
  context: ({ input }) => ({ url: input.url, attempt: 0 }),
  initial: 'live',
  states: {
    live: {
      invoke: { id: 'socket', src: 'socket', input: ({ context }) => ({ url: context.url }) },
      initial: 'connecting',
      on: { CLOSED: { target: 'reconnecting', actions: 'disconnected' } },
      states: {
        connecting: {
          on: {
            OPENED: {
              target: 'open',
              actions: [{ type: 'connected', params: ({ context }) => ({ reconnect: context.attempt > 0 }) }, assign({ attempt: 0 })],
            },
          },
        },
        open: {
          on: {
            RECEIVED: { actions: { type: 'received', params: ({ event }) => ({ data: event.data }) } },
            SEND: { actions: sendTo('socket', ({ event }) => event) },
          },
        },
      },
    },
    reconnecting: {
      entry: assign({ attempt: ({ context }) => context.attempt + 1 }),
      after: { backoff: 'live' },
    },
  },
});
