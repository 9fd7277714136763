import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { FastifyRequest } from 'fastify';
import type { SessionUser } from './session-store';
import { requireAdmin, viewerOf } from './firm-access';
import { API_TOKEN_PATTERN, type ApiTokenScope, type ApiTokenView, type CreatedApiTokenView } from '@pf/events';
import type { Migration } from '../db/migrate';
import { Forbidden, NotFound, Unauthenticated } from '../errors';
import { signedInBeforeValidation } from './plugin';

/**
 * API tokens (docs/event-feed.md "Tokens"): machine credentials of a firm, created by its admin. Only the
 * SHA-256 of the secret is kept (the secret has 256 random bits, so a plain hash is as good as a slow one);
 * every request looks the hash up afresh, so a revocation holds from the next request on, in every process.
 */
export const apiTokenMigrations: Migration[] = [
  {
    name: 'auth/api-tokens-001',
    sql: `
      create table api_tokens (
        id uuid primary key default gen_random_uuid(),
        firm_id text not null,
        name text not null,
        scopes text[] not null,
        secret_hash bytea not null unique,
        created_by text not null,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      create index api_tokens_firm on api_tokens (firm_id) where revoked_at is null;
    `,
  },
];

/** Who a presented token is: its firm and what it may do. */
export interface TokenPrincipal {
  readonly tokenId: string;
  readonly firmId: string;
  readonly scopes: readonly ApiTokenScope[];
}

const hashOf = (secret: string) => createHash('sha256').update(secret).digest();

interface TokenRow {
  id: string;
  name: string;
  scopes: ApiTokenScope[];
  created_at: Date;
  last_used_at: Date | null;
}

const viewOf = (row: TokenRow): ApiTokenView => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

export class ApiTokenStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(firmId: string, createdBy: string, name: string, scopes: readonly ApiTokenScope[]): Promise<CreatedApiTokenView> {
    const token = `pf_${randomBytes(32).toString('base64url')}`;
    const { rows } = await this.pool.query<TokenRow>(
      `insert into api_tokens (firm_id, name, scopes, secret_hash, created_by) values ($1, $2, $3, $4, $5)
       returning id, name, scopes, created_at, last_used_at`,
      [firmId, name, scopes, hashOf(token), createdBy],
    );
    return { ...viewOf(rows[0]!), token };
  }

  /** The firm's tokens still in force, newest first. */
  async list(firmId: string): Promise<ApiTokenView[]> {
    const { rows } = await this.pool.query<TokenRow>(
      `select id, name, scopes, created_at, last_used_at from api_tokens
       where firm_id = $1 and revoked_at is null order by created_at desc, id`,
      [firmId],
    );
    return rows.map(viewOf);
  }

  /** Revokes one of the firm's tokens; NotFound for another firm's, or one already revoked. */
  async revoke(firmId: string, id: string): Promise<void> {
    const { rowCount } = await this.pool.query(
      'update api_tokens set revoked_at = now() where id = $1 and firm_id = $2 and revoked_at is null',
      [id, firmId],
    );
    if (rowCount === 0) throw new NotFound('No such API token');
  }

  /** The token in force with this secret, or null; records its use (to the minute, so a busy job writes once a minute). */
  async authenticate(secret: string): Promise<TokenPrincipal | null> {
    if (!API_TOKEN_PATTERN.test(secret)) return null;
    const { rows } = await this.pool.query<{ id: string; firm_id: string; scopes: ApiTokenScope[]; stale: boolean }>(
      `select id, firm_id, scopes, (last_used_at is null or last_used_at < now() - interval '1 minute') as stale
       from api_tokens where secret_hash = $1 and revoked_at is null`,
      [hashOf(secret)],
    );
    const row = rows[0];
    if (!row) return null;
    if (row.stale) await this.pool.query('update api_tokens set last_used_at = now() where id = $1', [row.id]);
    return { tokenId: row.id, firmId: row.firm_id, scopes: row.scopes };
  }

  /** Whether the token is still in force (an open feed asks before each batch it sends). */
  async inForce(tokenId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('select 1 from api_tokens where id = $1 and revoked_at is null', [tokenId]);
    return rowCount === 1;
  }
}

/** The Bearer secret of a request, or null when it sends none. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The token a request presents, which must carry `scope`: 401 without a token in force (a session cookie is not
 * one: the routes a token opens are a job's, not a person's), 403 naming the scope it lacks.
 */
export async function requireToken(tokens: ApiTokenStore, request: FastifyRequest, scope: ApiTokenScope): Promise<TokenPrincipal> {
  const secret = bearerOf(request);
  if (!secret) throw new Unauthenticated('An API token is required: send it as "Authorization: Bearer <token>"');
  const principal = await tokens.authenticate(secret);
  if (!principal) throw new Unauthenticated('This API token is not valid or has been revoked');
  if (!principal.scopes.includes(scope)) throw new Forbidden(`This API token lacks the scope ${scope}`);
  return principal;
}

/**
 * The firm whose tokens a signed-in person manages, and the one place that decides who may: tokens are a firm's
 * (docs/event-feed.md "Tokens"), created, listed and revoked by its admins; anyone else gets 403 naming their role.
 */
export function tokenFirmOf(user: SessionUser): string {
  return requireAdmin(viewerOf(user), 'manage API tokens').firmId;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A read a job's API token with this scope may also make (docs/event-feed.md "Tokens"). */
    apiTokenScope?: ApiTokenScope;
  }
  interface FastifyRequest {
    /** The API token a request presented, on a route that accepts one. */
    apiToken?: TokenPrincipal;
  }
}

/**
 * A preValidation hook for a service's routes: a signed-in session, or, on a GET route that declares
 * `config.apiTokenScope`, an API token with that scope (401/403 otherwise). Every other route answers a token 401.
 */
export function sessionOrScopedToken(tokens: ApiTokenStore) {
  return async (request: FastifyRequest): Promise<void> => {
    const scope = request.routeOptions.config.apiTokenScope;
    if (!request.user && scope && request.method === 'GET' && bearerOf(request)) {
      request.apiToken = await requireToken(tokens, request, scope);
      return;
    }
    await signedInBeforeValidation(request);
  };
}

/** The reader of a route that accepts a token: the signed-in person, or the token. */
export function requireReader(request: FastifyRequest): SessionUser | TokenPrincipal {
  const reader = request.user ?? request.apiToken;
  if (!reader) throw new Unauthenticated();
  return reader;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * An onRequest hook of the HTTP shell: a request that presents an API token (a Bearer header) may only read.
 * Every write answers 401 before any route sees it, including writes that would answer a signed-out client
 * 200 (signing out), so no route added later can forget it.
 */
export async function refuseTokenWrites(request: FastifyRequest): Promise<void> {
  if (!READS.has(request.method) && bearerOf(request) !== null) {
    throw new Unauthenticated('An API token only reads: changes need a signed-in person');
  }
}
