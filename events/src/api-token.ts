import { z } from 'zod';
import { storableText } from './text';

/**
 * API tokens: machine credentials for jobs (docs/event-feed.md). A firm's admin creates one with scopes; its
 * secret is shown once and only its SHA-256 is stored. A token opens only the routes of its scopes (the event
 * feed, the analytics reads), never the console, the socket or a write.
 */
export const API_TOKEN_SCOPES = ['events:read', 'analytics:read'] as const;
export const apiTokenScope = z.enum(API_TOKEN_SCOPES, { error: 'scopes: each scope must be events:read or analytics:read' });
export type ApiTokenScope = z.infer<typeof apiTokenScope>;

/** What each scope lets a job do, in the console's words. */
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  'events:read': 'Read events',
  'analytics:read': 'Read analytics',
};

/** The secret's shape: "pf_" and 43 base64url characters (32 random bytes). */
export const API_TOKEN_PATTERN = /^pf_[A-Za-z0-9_-]{43}$/;

export const createApiTokenInput = z.strictObject({
  name: storableText({ error: 'name must be text' })
    .trim()
    .min(1, { error: 'name: a token needs a name' })
    .max(100, { error: 'name is at most 100 characters' }),
  scopes: z
    .array(apiTokenScope, { error: 'scopes must be a list of scopes' })
    .min(1, { error: 'scopes: choose at least one scope' })
    .transform((scopes) => [...new Set(scopes)]),
});
export type CreateApiTokenInput = z.infer<typeof createApiTokenInput>;

export const apiTokenView = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(apiTokenScope),
  createdAt: z.string(),
  /** When a job last presented it (to the minute); null: never used. */
  lastUsedAt: z.string().nullable(),
});
export type ApiTokenView = z.infer<typeof apiTokenView>;
export const apiTokenListView = z.array(apiTokenView);

/** The answer to creating a token: the only time its secret is shown. */
export const createdApiTokenView = apiTokenView.extend({ token: z.string() });
export type CreatedApiTokenView = z.infer<typeof createdApiTokenView>;

export const apiTokenParams = z.object({ id: z.uuid({ error: 'Token id must be a UUID' }) });
