import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import { reconnectDelay, socketMachine, type SocketEvent } from './socket-machine';

/** A socket that records what it is sent and lets the test play the server's side. */
function fakeSockets() {
  const opened: { sendBack: (event: SocketEvent) => void; sent: unknown[]; closed: boolean }[] = [];
  const socket = fromCallback<SocketEvent, { url: string }>(({ sendBack, receive }) => {
    const entry = { sendBack, sent: [] as unknown[], closed: false };
    opened.push(entry);
    receive((event) => {
      if (event.type === 'SEND') entry.sent.push(event.message);
    });
    return () => {
      entry.closed = true;
    };
  });
  return { opened, socket };
}

function start() {
  const { opened, socket } = fakeSockets();
  const log: string[] = [];
  const clock = new SimulatedClock();
  const machine = socketMachine.provide({
    actors: { socket },
    actions: {
      connected: (_, params) => void log.push(params.reconnect ? 'reconnected' : 'connected'),
      received: (_, params) => void log.push(`received ${params.data}`),
      disconnected: () => void log.push('disconnected'),
    },
    delays: { backoff: ({ context }) => 1000 * context.attempt },
  });
  const actor = createActor(machine, { input: { url: 'ws://test/ws' }, clock }).start();
  return { actor, opened, log, clock };
}

describe('socket machine', () => {
  it('connects, hands over data and forwards sends while open', () => {
    const { actor, opened, log } = start();
    expect(actor.getSnapshot().value).toEqual({ live: 'connecting' });
    opened[0]!.sendBack({ type: 'OPENED' });
    expect(actor.getSnapshot().value).toEqual({ live: 'open' });
    opened[0]!.sendBack({ type: 'RECEIVED', data: '{"type":"stats_changed"}' });
    actor.send({ type: 'SEND', message: { type: 'subscribe', conversationId: 3 } });
    expect(opened[0]!.sent).toEqual([{ type: 'subscribe', conversationId: 3 }]);
    expect(log).toEqual(['connected', 'received {"type":"stats_changed"}']);
  });

  it('reconnects with growing backoff and reports the reconnect so the owner can resume', () => {
    const { actor, opened, log, clock } = start();
    opened[0]!.sendBack({ type: 'OPENED' });
    opened[0]!.sendBack({ type: 'CLOSED' });
    expect(opened[0]!.closed).toBe(true);
    expect(actor.getSnapshot().value).toBe('reconnecting');
    clock.increment(999);
    expect(opened).toHaveLength(1);
    clock.increment(1);
    expect(opened).toHaveLength(2);
    // The second attempt fails before opening: the wait doubles.
    opened[1]!.sendBack({ type: 'CLOSED' });
    clock.increment(1999);
    expect(opened).toHaveLength(2);
    clock.increment(1);
    opened[2]!.sendBack({ type: 'OPENED' });
    expect(actor.getSnapshot().value).toEqual({ live: 'open' });
    expect(actor.getSnapshot().context.attempt).toBe(0);
    expect(log).toEqual(['connected', 'disconnected', 'disconnected', 'reconnected']);
  });

  it('closes the socket when stopped', () => {
    const { actor, opened } = start();
    actor.stop();
    expect(opened[0]!.closed).toBe(true);
  });
});

describe('backoff', () => {
  it('doubles from half a second up to 30 s, within the jitter band', () => {
    // Ceilings 0.5 s, 1 s, 2 s, … 30 s; the wait is drawn from the ceiling's upper half.
    expect(reconnectDelay(1, () => 0.5)).toBe(375);
    expect(reconnectDelay(3, () => 0.5)).toBe(1500);
    expect(reconnectDelay(20, () => 0.5)).toBe(22_500);
    expect(reconnectDelay(2, () => 0)).toBe(500);
    expect(reconnectDelay(2, () => 1)).toBe(1000);
  });
});
