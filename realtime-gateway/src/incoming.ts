import { clientMessage, type ClientMessage } from '@pf/events';

export type Incoming =
  | { readonly ok: true; readonly message: ClientMessage }
  | { readonly ok: false; readonly requestId: string | null; readonly problem: string };

function requestIdOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { requestId?: unknown }).requestId;
  return typeof id === 'string' && id.length <= 100 ? id : null;
}

/**
 * Reads one socket frame. A bad frame is answered, never fatal: the problem names the field and the
 * rule (STYLE.md habit 6), and the requestId is echoed whenever one can be read.
 */
export function parseIncoming(data: string | Buffer, isBinary: boolean): Incoming {
  if (isBinary) return { ok: false, requestId: null, problem: 'Messages must be JSON text, not binary frames' };
  let json: unknown;
  try {
    json = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
  } catch {
    return { ok: false, requestId: null, problem: 'Messages must be valid JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, requestId: null, problem: 'A message must be a JSON object with a type' };
  }
  const parsed = clientMessage.safeParse(json);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, requestId: requestIdOf(json), problem: `${field}${issue?.message ?? 'Invalid message'}` };
}
