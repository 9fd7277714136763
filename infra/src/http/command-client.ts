import type { FastifyInstance } from 'fastify';

export interface CommandRequest {
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly url: string;
  readonly body?: unknown;
  /** The browser's Cookie header, forwarded so the command-service authenticates the same user. */
  readonly cookie: string;
  /** Sent as Idempotency-Key: a command sent twice with it is carried out once. */
  readonly idempotencyKey?: string;
}

export interface CommandResponse {
  readonly statusCode: number;
  readonly body: unknown;
  /** The x-position of the command's last event, when it wrote one. */
  readonly position: string | null;
}

/**
 * How the gateway issues commands without importing the command-service: through its HTTP API,
 * in process (single node) or over the network (distributed).
 */
export interface CommandClient {
  execute(request: CommandRequest): Promise<CommandResponse>;
}

const parse = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return { message: text };
  }
};

const keyHeader = (key: string | undefined): Record<string, string> => (key === undefined ? {} : { 'idempotency-key': key });

export function injectCommandClient(app: FastifyInstance): CommandClient {
  return {
    async execute({ method, url, body, cookie, idempotencyKey }) {
      const response = await app.inject({
        method,
        url,
        headers: { cookie, ...keyHeader(idempotencyKey), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      const position = response.headers['x-position'];
      return { statusCode: response.statusCode, body: parse(response.body), position: typeof position === 'string' ? position : null };
    },
  };
}

export function httpCommandClient(baseUrl: string): CommandClient {
  return {
    async execute({ method, url, body, cookie, idempotencyKey }) {
      const response = await fetch(new URL(url, baseUrl), {
        method,
        headers: { cookie, ...keyHeader(idempotencyKey), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
      return { statusCode: response.status, body: parse(await response.text()), position: response.headers.get('x-position') };
    },
  };
}
