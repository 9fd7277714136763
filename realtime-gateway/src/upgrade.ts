import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { readCookie, RETRY_AFTER_SECONDS, SESSION_COOKIE, type SessionStore, type SessionUser, type SiteRules } from '@pf/infra';

export type Handshake =
  | { readonly ok: true; readonly user: SessionUser; readonly cookie: string; readonly token: string }
  | { readonly ok: false; readonly status: 400 | 401 | 403; readonly message: string };

/**
 * The upgrade is a browser request that carries the session cookie on its own, so it must come from a
 * page of ours (cross-site WebSocket hijacking): a Host this site does not answer to, a missing or foreign
 * Origin (scheme, host and port: the same rules as HTTP, infra/src/http/origin.ts) is refused, then the session.
 */
export async function checkHandshake(request: IncomingMessage, rules: SiteRules, sessions: SessionStore): Promise<Handshake> {
  const foreignHost = rules.refuseHost(request.headers.host);
  if (foreignHost) return { ok: false, status: 400, message: foreignHost };
  const origin = request.headers.origin;
  if (!origin) return { ok: false, status: 403, message: 'The socket needs an Origin header' };
  if (!rules.isAllowedOrigin(origin, request)) {
    return { ok: false, status: 403, message: `Sockets from origin ${origin} are not allowed` };
  }
  const cookie = request.headers.cookie ?? '';
  const token = readCookie(cookie, SESSION_COOKIE);
  const user = token ? await sessions.findUser(token) : null;
  if (!user || !token) return { ok: false, status: 401, message: 'Unauthorized: sign in first' };
  return { ok: true, user, cookie, token };
}

/** Answers the raw upgrade request with a plain HTTP error; the socket never opens. */
export function refuse(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ message });
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
      (status === 503 ? `Retry-After: ${RETRY_AFTER_SECONDS}\r\n` : '') +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
