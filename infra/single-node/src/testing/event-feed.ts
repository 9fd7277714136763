import type { FeedEnvelope } from '@pf/events';

/** GET /api/events with follow=false: every line, parsed (blank lines are heartbeats). */
export async function readFeedPage(
  baseUrl: string,
  token: string,
  query = '',
): Promise<{ status: number; events: FeedEnvelope[]; text: string }> {
  const response = await fetch(`${baseUrl}/api/events?follow=false${query ? `&${query}` : ''}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  const events = response.ok
    ? text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as FeedEnvelope)
    : [];
  return { status: response.status, events, text };
}

/**
 * An open feed (follow=true) read line by line, as a job reads it: `next(predicate)` resolves with the events
 * received until one matches; `ended` resolves when the server ends the answer. `close()` hangs up.
 */
export async function openFeed(baseUrl: string, token: string, query = '') {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/api/events?${query}`, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  if (!response.ok || !response.body) throw new Error(`The feed answered ${response.status}: ${await response.text()}`);
  const received: FeedEnvelope[] = [];
  let wake: () => void = () => undefined;
  let buffer = '';
  const decoder = new TextDecoder();
  const ended = (async () => {
    const reader = response.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) if (line.trim() !== '') received.push(JSON.parse(line) as FeedEnvelope);
        wake();
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    } finally {
      wake();
    }
  })();
  let finished = false;
  void ended.finally(() => (finished = true));
  return {
    response,
    received,
    ended,
    /** Waits (bounded by the test's timeout) until an event matches; fails if the answer ends first. */
    async next(predicate: (event: FeedEnvelope) => boolean): Promise<FeedEnvelope> {
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (finished) throw new Error('The feed ended before the event arrived');
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    close() {
      abort.abort();
      return ended.catch(() => undefined);
    },
  };
}
