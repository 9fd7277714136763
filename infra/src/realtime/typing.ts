import type pg from 'pg';
import { z } from 'zod';

/**
 * "An automated agent is composing": a passing signal across processes (PostgreSQL NOTIFY), not an
 * event; every realtime-gateway copy LISTENs and pushes `typing` to the sockets following that conversation.
 */
export const TYPING_CHANNEL = 'agent_typing';

export const typingSignal = z.object({
  conversationId: z.number().int().positive(),
  agentId: z.number().int().positive(),
  agentName: z.string().max(200),
});
export type TypingSignal = z.infer<typeof typingSignal>;

export async function notifyTyping(pool: pg.Pool | pg.PoolClient, signal: TypingSignal): Promise<void> {
  await pool.query('select pg_notify($1, $2)', [TYPING_CHANNEL, JSON.stringify(typingSignal.parse(signal))]);
}
