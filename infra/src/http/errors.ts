import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { DomainError } from '../errors';

/** Names the field and the rule: "name: Agent name is required". */
export function describeZodError(error: ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty but its content type says JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is larger than 64 KiB',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body',
};

/** One place maps errors to answers; a 5xx never shows internals (STYLE.md habit 6). */
export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof DomainError) {
    reply.status(error.statusCode).send({ message: error.message });
    return;
  }
  if (error instanceof ZodError) {
    reply.status(400).send({ message: describeZodError(error) });
    return;
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode ?? 500;
  if (status < 500) {
    const message = (fastifyError.code && FASTIFY_MESSAGES[fastifyError.code]) ?? error.message;
    reply.status(status).send({ message });
    return;
  }
  request.log.error({ err: error, url: request.url, method: request.method }, 'request failed');
  reply.status(500).send({ message: 'Something went wrong on our side; it has been logged' });
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  reply.status(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}` });
}
