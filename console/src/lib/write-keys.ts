/**
 * The `Idempotency-Key` of each write the console sends (docs/decisions/idempotency-keys.md): one key per
 * intended action. A write whose answer never came (the network failed, or the server answered with a status a
 * retry can get past) keeps its key, so sending the same request again, by the client's own retry or by the
 * person pressing the button again, reuses it and the server answers the first request's answer rather than
 * acting twice. Once a write has its answer, the same request sent again is a new action with a new key.
 */
const unanswered = new Map<string, string>();
/** Keys of writes left unanswered that nobody retried are forgotten past this many (the oldest first). */
const KEPT = 100;

/** The statuses the server does not keep against a key (idempotency.ts `transient`): a retry runs afresh. */
export const isTransientStatus = (status: number) => status >= 500 || status === 409 || status === 429;

function newKey(): string {
  // getRandomValues, not randomUUID: the latter exists only in secure contexts, and a console may be served over
  // plain HTTP inside a firm's network.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * What makes two writes the same request, as the server compares them: method, path and body. A form's file
 * is known by its name, size, type and modification time (a retry of the same form sends the same file).
 */
export function requestIdentity(method: string, path: string, body: unknown): string {
  if (body instanceof FormData) {
    const fields = [...body.entries()].map(([name, value]) =>
      typeof value === 'string' ? `${name}=${value}` : `${name}=file:${value.name}:${value.size}:${value.type}:${value.lastModified}`,
    );
    return `${method} ${path}\nform\n${fields.join('\n')}`;
  }
  return `${method} ${path}\n${body === undefined ? '' : JSON.stringify(body)}`;
}

/**
 * The key for this write: the key of the same request left unanswered, or a new one. A second press while the
 * first is still on its way is a second action, as it would be without keys; only a failed one is retried.
 */
export function keyFor(identity: string): string {
  return unanswered.get(identity) ?? newKey();
}

/** The write got no answer it can keep (the network failed, or a status a retry can get past): keep its key. */
export function leftUnanswered(identity: string, key: string): void {
  unanswered.delete(identity);
  unanswered.set(identity, key);
  if (unanswered.size > KEPT) unanswered.delete(unanswered.keys().next().value!);
}

/** The write has its answer: the same request sent again is a new action. */
export function answered(identity: string): void {
  unanswered.delete(identity);
}
