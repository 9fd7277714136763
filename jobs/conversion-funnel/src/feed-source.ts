import { feedEnvelope, type FeedEnvelope } from '@pf/events';
import type { EventSource } from './source';

export interface FeedSourceOptions {
  /** The platform's address, e.g. http://localhost:5000. */
  readonly baseUrl: string;
  /** An API token with the scope events:read. */
  readonly token: string;
  readonly types?: readonly string[];
  readonly log?: (line: string) => void;
}

/** Raised when the platform refuses the token (401 or 403): retrying would not help. */
class TokenRefused extends Error {}

/**
 * The event feed (docs/event-feed.md): one long GET /api/events?after=… answer, read line by line; when it ends
 * or fails it is opened again after the last position handled, with capped backoff, until closed.
 */
export function feedSource(options: FeedSourceOptions): EventSource {
  let abort: AbortController | null = null;
  let closed = false;
  let running: Promise<void> | null = null;
  const log = options.log ?? (() => undefined);

  async function readOnce(after: string | null, onBatch: (events: readonly FeedEnvelope[]) => Promise<void>): Promise<string | null> {
    const query = new URLSearchParams();
    if (after) query.set('after', after);
    if (options.types) query.set('types', options.types.join(','));
    abort = new AbortController();
    const response = await fetch(`${options.baseUrl}/api/events?${query}`, {
      headers: { authorization: `Bearer ${options.token}`, accept: 'application/x-ndjson' },
      signal: abort.signal,
    });
    if (response.status === 401 || response.status === 403)
      throw new TokenRefused(`The platform refused the token (${response.status}): ${await response.text()}`);
    if (!response.ok || !response.body) throw new Error(`The feed answered ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let position = after;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return position;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      // Blank lines are the feed's heartbeats.
      const events = lines.filter((line) => line.trim() !== '').map((line) => feedEnvelope.parse(JSON.parse(line)));
      if (events.length > 0) {
        await onBatch(events);
        position = events[events.length - 1]!.position;
      }
    }
  }

  return {
    name: `the event feed at ${options.baseUrl}`,
    async start(after, onBatch) {
      running = (async () => {
        let position = after;
        for (let attempt = 0; !closed; attempt++) {
          try {
            position = await readOnce(position, onBatch);
            attempt = 0;
          } catch (error) {
            if (closed) return;
            if (error instanceof TokenRefused) throw error;
            log(`The feed stopped (${(error as Error).message}); reconnecting`);
          }
          if (closed) return;
          await new Promise((resolve) => setTimeout(resolve, Math.min(10_000, 250 * 2 ** Math.min(attempt, 6))));
        }
      })();
      return running;
    },
    async close() {
      closed = true;
      abort?.abort();
      await running?.catch(() => undefined);
    },
  };
}
