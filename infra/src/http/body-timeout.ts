import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A request body that stalls (no byte for `idleMs`) is answered 408 and its connection closed, so a client cannot
 * hold a request open by sending a body slowly or not at all (docs/operations/web-security.md). The whole request
 * is also bounded by REQUEST_TIMEOUT_MS (Node's requestTimeout). Uses the socket's idle timer while the body is
 * coming, whoever reads it (a parser, or a route that streams it), and lets it go once the body has ended.
 */
export function bodyTimeout(idleMs: number) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const raw = request.raw;
    const length = raw.headers['content-length'];
    const hasBody = raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    // A request injected in-process (the gateway forwarding a socket command) has no socket to stall, nor its timer.
    const timed = typeof (raw as { setTimeout?: unknown }).setTimeout === 'function';
    if (!hasBody || raw.complete || !timed) return done();
    raw.setTimeout(idleMs, () => {
      if (raw.complete) return;
      request.log.info({ url: request.url, method: request.method }, 'request body stalled: answered 408');
      const message = JSON.stringify({ message: `The request body stopped arriving for ${idleMs / 1000} s; send it again` });
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(408, { connection: 'close', 'content-type': 'application/json; charset=utf-8' });
        reply.raw.end(message, () => raw.socket.destroy());
      } else {
        raw.socket.destroy();
      }
    });
    raw.once('end', () => raw.setTimeout(0));
    done();
  };
}
