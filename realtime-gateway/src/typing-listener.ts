import type pg from 'pg';
import { TYPING_CHANNEL, typingSignal, type Logger, type TypingSignal } from '@pf/infra';

/**
 * LISTENs on the typing channel with one connection held from the pool. A typing indicator is a
 * passing signal, not a fact worth storing as an event; a lost one is not replayed.
 */
export function listenForTyping(pool: pg.Pool, log: Logger, onSignal: (signal: TypingSignal) => void) {
  let client: pg.PoolClient | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== TYPING_CHANNEL || !message.payload) return;
    try {
      const parsed = typingSignal.safeParse(JSON.parse(message.payload));
      if (parsed.success) onSignal(parsed.data);
    } catch {
      log.debug({ payload: message.payload }, 'ignored a typing signal that is not JSON');
    }
  };

  const drop = (held: pg.PoolClient, error?: Error) => {
    if (client !== held) return;
    client = null;
    held.removeListener('notification', onNotification);
    held.release(error ?? true);
    if (!closed) retry = setTimeout(() => void connect(), 1000);
  };

  const connect = async () => {
    try {
      const held = await pool.connect();
      if (closed) return held.release();
      client = held;
      held.on('notification', onNotification);
      held.once('error', (error) => drop(held, error));
      await held.query(`listen ${TYPING_CHANNEL}`);
    } catch (error) {
      log.warn({ err: error }, 'typing listener could not connect; retrying');
      if (client) drop(client, error as Error);
      else if (!closed) retry = setTimeout(() => void connect(), 1000);
    }
  };

  const ready = connect();
  return {
    ready,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await ready;
      const held = client;
      client = null;
      if (held) {
        held.removeListener('notification', onNotification);
        await held.query(`unlisten ${TYPING_CHANNEL}`).catch(() => undefined);
        held.release();
      }
    },
  };
}
