import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable';
import { errorHandler } from './errors';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('database outages', () => {
  it('recognises the errors that mean the database cannot be reached or cannot serve now', () => {
    for (const error of [
      pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      pgError('ECONNRESET', 'read ECONNRESET'),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is shutting down'),
      pgError('08006', 'connection failure'),
      pgError('08001'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('wrapped', { cause: pgError('57P01') }),
      Object.assign(pgError('ENOENT', 'connect ENOENT /data/postgres/.s.PGSQL.5432'), { syscall: 'connect' }),
    ]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    }
    const missingFile = Object.assign(pgError('ENOENT', "ENOENT: no such file or directory, open 'x'"), { syscall: 'open' });
    for (const error of [
      pgError('23505', 'duplicate key'),
      pgError('42P01', 'relation does not exist'),
      missingFile,
      new Error('boom'),
      null,
      'text',
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });

  it('answers 503 with Retry-After and a plain message, and keeps 500 for everything else', async () => {
    const app = Fastify();
    app.setErrorHandler(errorHandler);
    app.get('/down', async () => {
      throw pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432');
    });
    app.get('/bug', async () => {
      throw new Error('a bug with internals');
    });
    const down = await app.inject({ url: '/down' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('2');
    expect(down.json()).toEqual({ message: 'The database cannot be reached just now; try again in a few seconds' });
    const bug = await app.inject({ url: '/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.body).not.toContain('internals');
    await app.close();
  });
});
