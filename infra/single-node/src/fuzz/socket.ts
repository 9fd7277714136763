import WebSocket from 'ws';
import { USER_MESSAGES } from '@pf/events';
import { socketFrame } from './inputs';
import { checkInWorkers } from './property';
import type { FuzzReport, FuzzTarget } from './report';

/** Messages that mean the server failed (as opposed to refusing the input by name). */
const SERVER_FAILURE_WORDS = new Set<string>(['Something went wrong', USER_MESSAGES.messageSendFailed, USER_MESSAGES.manualToggleFailed]);
/** Frames a second per socket: each frame is followed by a probe, so two messages, within the gateway's 20 a second. */
const FRAMES_PER_SECOND = 7;
const PROBE_TIMEOUT_MS = 30_000;

/**
 * A socket that can be probed: after a frame, an unsubscribe with a requestId of its own is sent, and the
 * gateway (which handles a socket's messages one at a time, in order) answers it only after it has dealt
 * with the frame. So whatever the frame caused, a server failure or the socket closing, is known before the
 * next frame, and the property can blame that frame.
 */
class ProbedSocket {
  closed = false;
  failures: string[] = [];
  private readonly waiting = new Map<string, (answered: boolean) => void>();
  private probes = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      let message: { type?: string; message?: string; requestId?: string | null };
      const text = (data as Buffer).toString(); // ws hands a text frame over as one Buffer (binaryType nodebuffer)
      try {
        message = JSON.parse(text) as typeof message;
      } catch {
        return void this.failures.push(`a message that is not JSON: ${text.slice(0, 200)}`);
      }
      if (message.type === 'error' && message.message && SERVER_FAILURE_WORDS.has(message.message))
        this.failures.push(JSON.stringify(message).slice(0, 300));
      if (message.requestId) this.waiting.get(message.requestId)?.(true);
    });
    ws.on('close', () => {
      this.closed = true;
      for (const answer of this.waiting.values()) answer(false);
    });
  }

  static open(target: FuzzTarget): Promise<ProbedSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${target.url.replace(/^http/, 'ws')}/ws`, { headers: { cookie: target.cookie, origin: target.url } });
      ws.once('open', () => resolve(new ProbedSocket(ws)));
      ws.once('error', reject);
    });
  }

  /** True when the gateway answered the probe; false when the socket closed or stayed silent. */
  probe(conversationId: number): Promise<boolean> {
    const requestId = `probe-${++this.probes}`;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(false), PROBE_TIMEOUT_MS);
      const settle = (answered: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve(answered);
      };
      this.waiting.set(requestId, settle);
      if (this.closed) return settle(false);
      this.ws.send(JSON.stringify({ type: 'unsubscribe', requestId, conversationId }));
    });
  }
}

function describeFrame(frame: { binary: boolean; data: string | Buffer }): string {
  return frame.binary ? `binary ${Buffer.from(frame.data).toString('hex').slice(0, 200)}` : String(frame.data).slice(0, 300);
}

/** Every socket message type, hostile frames included, over several sockets at once; each frame is a property run. */
export async function fuzzSocket(target: FuzzTarget, report: FuzzReport, runs: number, seed: number): Promise<void> {
  const workers = Math.max(1, Math.min(40, Math.ceil(runs / 75)));
  const sockets: (ProbedSocket | null)[] = Array.from({ length: workers }, () => null);
  const probeConversation = target.conversationIds[0] ?? 1;
  await checkInWorkers(
    report,
    socketFrame(target.conversationIds, target.position),
    { runs, workers, seed: seed + 1000, label: 'socket' },
    async (frame, counted, worker) => {
      // A socket closed by an earlier frame was already blamed on it: later runs (shrink steps too) get a new one.
      let socket = sockets[worker];
      if (!socket || socket.closed) socket = sockets[worker] = await ProbedSocket.open(target);
      socket.failures = [];
      const paced = new Promise((resolve) => setTimeout(resolve, 1000 / FRAMES_PER_SECOND));
      socket.ws.send(frame.data, { binary: frame.binary });
      if (counted) report.socketInputs += 1;
      const answered = await socket.probe(probeConversation);
      await paced;
      if (!answered) {
        if (counted) report.socketsClosedUnexpectedly += 1;
        return `the socket ${socket.closed ? 'closed' : 'stopped answering'} after the frame ${describeFrame(frame)}`;
      }
      if (socket.failures.length > 0) {
        if (counted) for (const message of socket.failures) report.socketServerErrors.push({ frame: describeFrame(frame), message });
        return `a server failure after the frame ${describeFrame(frame)}: ${socket.failures.join('; ')}`;
      }
      return null;
    },
  );
  for (const socket of sockets) socket?.ws.close();
}
