import type pg from 'pg';
import type { PresenceSignal, ViewingEntry } from '@pf/events';

/** Presence across gateway copies (the signals: presenceSignal in events/socket.ts), like the agents' typing signal. */
export const PRESENCE_CHANNEL = 'conversation_presence';

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a heartbeat is cut into signals below this. */
export const MAX_SIGNAL_BYTES = 7000;

export async function notifyPresence(pool: pg.Pool, signal: PresenceSignal): Promise<void> {
  await pool.query('select pg_notify($1, $2)', [PRESENCE_CHANNEL, JSON.stringify(signal)]);
}

/** The entries of one heartbeat as signals each small enough for one NOTIFY. */
export function viewingSignals(entries: readonly ViewingEntry[], ttlMs: number): PresenceSignal[] {
  const signals: PresenceSignal[] = [];
  let batch: ViewingEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (batch.length > 0 && bytes + size > MAX_SIGNAL_BYTES - 100) {
      signals.push({ kind: 'viewing', ttlMs, entries: batch });
      batch = [];
      bytes = 0;
    }
    batch.push(entry);
    bytes += size;
  }
  if (batch.length > 0) signals.push({ kind: 'viewing', ttlMs, entries: batch });
  return signals;
}
