import type pg from 'pg';
import { TYPING_CHANNEL, typingSignal, type FollowerSpec, type Logger, type TypingSignal } from '@pf/infra';

/** Agents' typing signals (sent by the automation through infra's notifyTyping). */
export function typingListener(pool: pg.Pool, log: Logger, onSignal: (signal: TypingSignal) => void): FollowerSpec {
  return notificationListener(pool, log, 'typing listener', TYPING_CHANNEL, (payload) => {
    const parsed = typingSignal.safeParse(JSON.parse(payload));
    if (parsed.success) onSignal(parsed.data);
  });
}

/**
 * LISTENs on one channel with one connection held from the pool, as a supervised follower (a lost
 * connection ends the run; the supervisor listens again with backoff). What passes on these channels is a
 * passing signal (typing, presence), not a fact worth storing as an event; one lost meanwhile is not replayed.
 */
export function notificationListener(
  pool: pg.Pool,
  log: Logger,
  name: string,
  channel: string,
  onPayload: (payload: string) => void,
): FollowerSpec {
  const onNotification = (message: pg.Notification) => {
    if (message.channel !== channel || !message.payload) return;
    try {
      onPayload(message.payload);
    } catch (error) {
      log.debug({ err: error, payload: message.payload }, `${name} ignored a signal it could not read`);
    }
  };

  return {
    name,
    position: () => null,
    async start() {
      const held = await pool.connect();
      let failure: Error | undefined;
      let fail: (error: Error) => void = () => undefined;
      const done = new Promise<void>((_, reject) => (fail = reject));
      done.catch(() => undefined);
      const lost = (error?: Error) => {
        failure ??= error ?? new Error(`the ${name} connection ended`);
        fail(failure);
      };
      const ended = () => lost();
      held.on('error', lost);
      held.on('end', ended);
      held.on('notification', onNotification);
      try {
        await held.query(`listen ${channel}`);
      } catch (error) {
        failure = error as Error;
      }
      const close = async () => {
        held.removeListener('notification', onNotification);
        if (!failure) await held.query(`unlisten ${channel}`).catch((error: Error) => (failure = error));
        held.removeListener('error', lost);
        held.removeListener('end', ended);
        held.release(failure ?? undefined);
      };
      if (failure) {
        const error = failure;
        await close();
        throw error;
      }
      return { caughtUp: Promise.resolve(), done, close };
    },
  };
}
