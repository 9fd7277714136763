import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { describeZodError } from '@pf/events';
import { DomainError } from '../errors';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '../db/unavailable';

/**
 * The same wording for a route's schema failing on its params, querystring or body: the validator reports
 * each zod issue with its path as "/criteria/loanTermMin", written here as "criteria.loanTermMin".
 */
function describeValidation(validation: readonly { instancePath: string; message?: string }[]): string {
  return validation
    .map(({ instancePath, message = 'is not valid' }) => {
      const path = instancePath.split('/').filter(Boolean).join('.');
      return path ? `${path}: ${message}` : message;
    })
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
    if (error.statusCode === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    reply.status(error.statusCode).send({ message: error.message });
    return;
  }
  if (error instanceof ZodError) {
    reply.status(400).send({ message: describeZodError(error) });
    return;
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    reply.status(400).send({ message: describeValidation(error.validation) });
    return;
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode ?? 500;
  if (status < 500) {
    const message = (fastifyError.code && FASTIFY_MESSAGES[fastifyError.code]) ?? error.message;
    reply.status(status).send({ message });
    return;
  }
  if (isDatabaseUnavailable(error)) {
    // An outage, not a bug: one line without the stack (readiness and the followers' logs tell the story).
    request.log.warn({ url: request.url, method: request.method, reason: error.message }, 'request refused: the database is unavailable');
    reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ message: UNAVAILABLE_MESSAGE });
    return;
  }
  request.log.error({ err: error, url: request.url, method: request.method }, 'request failed');
  reply.status(500).send({ message: 'Something went wrong on our side; it has been logged' });
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  reply.status(404).send({ message: `No route for ${request.method} ${request.url.split('?')[0]}` });
}
