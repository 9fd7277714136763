/**
 * Errors that mean the database cannot be reached or cannot serve now, as opposed to a fault in a query:
 * a client should try again shortly (503 with Retry-After), and readiness should say the database is down.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is shutting down
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '57014', // query_canceled: our statement_timeout ended a statement stuck behind a lock
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout ended the session
]);
// node-postgres and pg-pool raise these without a code.
const MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'Query read timeout',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, syscall } = current as { code?: unknown; message?: unknown; syscall?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) return true;
    // A Unix socket that is not there (the embedded server, while it is started again); not any missing file.
    if (code === 'ENOENT' && syscall === 'connect') return true;
    if (typeof message === 'string' && MESSAGES.some((text) => message.includes(text))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is told to wait (Retry-After) before trying again. */
export const RETRY_AFTER_SECONDS = 2;
export const UNAVAILABLE_MESSAGE = 'The database cannot be reached just now; try again in a few seconds';
