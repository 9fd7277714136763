import { isIP } from 'node:net';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const list = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** Every setting of every service, validated once at start-up (STYLE.md habit 10). */
export const configSchema = z
  .object({
    PORT: port.default(5000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
    DATA_DIR: z.string().default('./data'),
    /** The embedded PostgreSQL is started again when it stops; down this long, /healthz fails (docs/operations/embedded-database.md). */
    EMBEDDED_DATABASE_GIVE_UP_SECONDS: z.coerce.number().int().positive().max(3600).default(30),
    /**
     * Continuous backup of the embedded PostgreSQL (docs/operations/backups.md): on by default; off, nothing is archived.
     * Against DATABASE_URL it does nothing: that server's own backups are its operator's.
     */
    BACKUP: z.enum(['on', 'off']).default('on'),
    /** Where base backups and the archived WAL go; unset, beside DATA_DIR (./data-backups for ./data). */
    BACKUP_DIR: z
      .string()
      .regex(/^[^\n\r\0]+$/, { error: 'must be a path on one line' })
      .optional(),
    /** A base backup is taken when the newest is this old (and at the first start). */
    BACKUP_INTERVAL_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 30)
      .default(24),
    /** Base backups older than this are deleted (the newest is always kept), and the WAL only they need. */
    BACKUP_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(7),
    /** The WAL is archived at least this often while anything is written: the most acknowledged work a lost disk costs. */
    BACKUP_ARCHIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /**
     * A copy of BACKUP_DIR in an S3-compatible object store, `s3://bucket/optional/prefix` (docs/operations/backups.md
     * "Object store"), with the credentials below.
     */
    BACKUP_S3_URL: z
      .string()
      .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^\n\r\0]*)?$/, { error: 'must be s3://bucket or s3://bucket/prefix' })
      .optional(),
    /** The object store's endpoint, for S3-compatible stores other than AWS (MinIO, Ceph, Cloudflare R2): https://host:port. */
    BACKUP_S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    BACKUP_S3_REGION: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, { error: 'must be a region name such as eu-west-2' })
      .default('eu-west-2'),
    /** The object store's credentials; unset, the AWS SDK's usual sources (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, a role). */
    BACKUP_S3_ACCESS_KEY_ID: z.string().min(1).max(200).optional(),
    BACKUP_S3_SECRET_ACCESS_KEY: z.string().min(1).max(200).optional(),
    /** How often new WAL segments and base backups are copied to the object store. */
    BACKUP_S3_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
    EVENTSTORE_URL: z
      .string()
      .regex(/^(esdb|kurrentdb|kdb)(\+discover)?:\/\//, { error: 'must be an esdb:// connection string' })
      .optional(),
    KAFKA_BROKERS: list.optional(),
    KAFKA_TOPIC: z.string().min(1).default('property-finance.events'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Origins allowed to write and to open /ws besides the server's own. */
    ALLOWED_ORIGINS: list.default([]),
    /**
     * Host names the server answers to besides localhost, 127.0.0.1, [::1] and the hosts of PUBLIC_URL and
     * ALLOWED_ORIGINS (docs/operations/web-security.md); `*` answers to any. Any port.
     */
    ALLOWED_HOSTS: list.default([]).refine((hosts) => hosts.every(isHostName), {
      error: 'must be host names separated by commas (such as console.example.com,proxy), or *',
    }),
    /** The whole request (headers and body) must have arrived within this long, else 408 and the connection closes. */
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(120_000),
    /** A request body that sends nothing for this long is answered 408 and its connection closed. */
    BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Commands (and sign-ins) allowed per client per minute. */
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
    /**
     * Which proxies' X-Forwarded-For and X-Forwarded-Proto to believe (the client's address for rate limits before
     * sign-in, https for the Secure cookie flag): true (any: the service is reachable only through its proxy),
     * false (none), or a comma-separated list of addresses, CIDR ranges and the names loopback, linklocal and
     * uniquelocal. The default believes a proxy on this machine only.
     */
    TRUST_PROXY: z
      .string()
      .default('loopback')
      .transform((value, context) => {
        const trimmed = value.trim().toLowerCase();
        if (['true', '1', 'yes', 'on'].includes(trimmed)) return true;
        if (['false', '0', 'no', 'off'].includes(trimmed)) return false;
        const entries = trimmed
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean);
        const bad = entries.filter((entry) => !['loopback', 'linklocal', 'uniquelocal'].includes(entry) && !isAddressOrRange(entry));
        if (bad.length > 0 || entries.length === 0) {
          context.addIssue({
            code: 'custom',
            message: `must be true, false, or a list of addresses, CIDR ranges, loopback, linklocal or uniquelocal; not ${bad.join(', ') || 'empty'}`,
          });
          return z.NEVER;
        }
        return entries;
      }),
    /**
     * Who may read GET /metrics (docs/operations/observability.md): addresses, CIDR ranges, loopback, linklocal,
     * uniquelocal, comma-separated; checked against the connection's own address, never X-Forwarded-For.
     */
    METRICS_ALLOW: z
      .string()
      .default('loopback')
      .transform((value, context) => {
        const entries = value
          .toLowerCase()
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean);
        const bad = entries.filter((entry) => !['loopback', 'linklocal', 'uniquelocal'].includes(entry) && !isAddressOrRange(entry));
        if (bad.length > 0 || entries.length === 0) {
          context.addIssue({
            code: 'custom',
            message: `must list addresses, CIDR ranges, loopback, linklocal or uniquelocal; not ${bad.join(', ') || 'empty'}`,
          });
          return z.NEVER;
        }
        return entries;
      }),
    /** Traces go by OTLP over HTTP to this collector (docs/operations/observability.md); unset, none are made. */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    SESSION_TTL_HOURS: z.coerce
      .number()
      .positive()
      .default(24 * 14),
    /**
     * The realtime gateway's index: entries kept in each of its maps (agents, conversations, deals, documents) besides the
     * conversations connected sockets follow; what leaves is loaded again from the store (docs/decisions/bounded-restart.md).
     */
    GATEWAY_INDEX_ENTRIES: z.coerce.number().int().min(100).max(10_000_000).default(20_000),
    /** How long a process trusts a session it has just confirmed (a revocation elsewhere takes up to this long). */
    SESSION_CACHE_MS: z.coerce.number().int().nonnegative().max(60_000).default(2000),
    /** How long an Idempotency-Key is remembered after its first use (a retry after that runs again). */
    IDEMPOTENCY_KEY_TTL_HOURS: z.coerce
      .number()
      .positive()
      .max(24 * 30)
      .default(24),
    /**
     * The most a firm's documents may take in the file store, in MB (docs/behaviour/documents.md): an upload that
     * would go over it is refused (413 naming the quota) and nothing of it is kept.
     */
    UPLOAD_QUOTA_MB_PER_FIRM: z.coerce
      .number({ error: 'must be a whole number of megabytes' })
      .int({ error: 'must be a whole number of megabytes' })
      .min(1, { error: 'must be at least 1 (MB)' })
      .max(10_000_000, { error: 'must be at most 10000000 (MB)' })
      .default(1024),
    /** How long a read with x-after-position waits for the projections (spec: at most 5 s). */
    READ_WAIT_TIMEOUT_MS: z.coerce.number().int().positive().max(30_000).default(5000),
    /** /readyz answers 503 when a follower of the event stream is more than this many events behind. */
    READY_MAX_LAG_EVENTS: z.coerce.number().int().positive().max(1_000_000).default(1000),
    CONSOLE_DIST: z.string().optional(),
    AGENT_REPLY_DELAY_MS: z.coerce.number().int().nonnegative().default(2000),
    /** How long one hour of an agent's response time lasts, in ms: an hour in production; tests shorten it. */
    AGENT_RESPONSE_HOUR_MS: z.coerce.number().int().min(100).max(3_600_000).default(3_600_000),
    AUTOMATION: z.enum(['on', 'off']).default('on'),
    /** Accounts (user ids) that may administer the product (start a live rebuild); none by default. */
    ADMIN_USER_IDS: list.default([]),
    MATCH_THRESHOLD: z.coerce.number().min(0).max(100).default(70),
    MAX_OPEN_CONVERSATIONS: z.coerce.number().int().positive().default(3),
    NEGOTIATION_DEADLINE_ROUNDS: z.coerce.number().int().positive().default(10),
    /** Lenders' rules (docs/behaviour/negotiation.md): residential loans up to this many times income. */
    LENDING_INCOME_MULTIPLE: z.coerce.number().positive().max(20).default(4.5),
    /** Buy-to-let: yearly rent must cover this share of a year's interest at the stressed rate (1.25 = 125%). */
    LENDING_INTEREST_COVER: z.coerce.number().positive().max(5).default(1.25),
    /** Buy-to-let: the rate, in percent a year, the interest cover test assumes. */
    LENDING_STRESSED_RATE: z.coerce.number().positive().max(30).default(5.5),
    /** Bank of England Bank Rate, percent: what trackers track in sourcing (docs/behaviour/products.md). */
    BANK_RATE_PERCENT: z.coerce.number().min(0).max(30).default(4),
    LLM_BASE_URL: z.url().optional(),
    LLM_API_KEY: z.string().optional(),
    LLM_MODEL: z.string().optional(),
    /** Where a standalone realtime gateway sends commands (the command-service's base URL). */
    COMMAND_SERVICE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
    /**
     * The payment provider (docs/behaviour/billing.md): its API's base URL and the platform's secret key for it, and
     * the publishable key its hosted card fields are opened with. Unset, Billing says no provider is configured and
     * takes no payment method; invoices are issued all the same.
     */
    PAYMENT_PROVIDER_URL: z.url({ protocol: /^https?$/, error: "must be the payment provider's API URL (https://…)" }).optional(),
    PAYMENT_PROVIDER_SECRET_KEY: z.string().min(1).optional(),
    PAYMENT_PROVIDER_PUBLISHABLE_KEY: z.string().min(1).optional(),
    /** How often, in seconds, the invoicing run looks for firms whose month has begun without its invoice. */
    INVOICE_RUN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
    /** OpenID Connect (docs/behaviour/sign-in.md): all three set, sign-in goes through the provider; none set, registration-free. */
    OIDC_ISSUER: z.url({ protocol: /^https?$/, error: "must be the provider's issuer URL (https://…)" }).optional(),
    OIDC_CLIENT_ID: z.string().optional(),
    OIDC_CLIENT_SECRET: z.string().optional(),
    /**
     * The address people reach the console at (scheme, host, port), for the OIDC redirect URI
     * {PUBLIC_URL}/api/auth/callback; unset, it is taken from each sign-in request.
     */
    PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  })
  .superRefine((config, context) => {
    // Half a payment provider would show Add Payment Method and fail at the provider: refuse it, naming what is missing.
    const payment = ['PAYMENT_PROVIDER_URL', 'PAYMENT_PROVIDER_SECRET_KEY', 'PAYMENT_PROVIDER_PUBLISHABLE_KEY'] as const;
    const paymentSet = payment.filter((name) => config[name] !== undefined);
    if (paymentSet.length > 0 && paymentSet.length < payment.length) {
      for (const name of payment.filter((n) => config[n] === undefined)) {
        context.addIssue({
          code: 'custom',
          path: [name],
          message: `is required when ${paymentSet.join(' and ')} is set (set all three, or none)`,
        });
      }
    }
    // Half an OIDC configuration would silently fall back to guest sign-in: refuse it, naming what is missing.
    const oidc = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
    const set = oidc.filter((name) => config[name] !== undefined);
    // Refinements run even when a field has failed its own check (zod 4), so the issuer may not be a URL here.
    const issuer = config.OIDC_ISSUER && URL.canParse(config.OIDC_ISSUER) ? new URL(config.OIDC_ISSUER) : null;
    if (issuer?.protocol === 'http:' && !isLoopbackUrl(issuer.href)) {
      context.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'must be an https:// URL (http:// only for a provider on localhost)',
      });
    }
    if (set.length === 0 || set.length === oidc.length) return;
    for (const name of oidc.filter((n) => config[n] === undefined)) {
      context.addIssue({
        code: 'custom',
        path: [name],
        message: `is required when ${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} set (set all three OIDC_ settings, or none)`,
      });
    }
  });
export type Config = z.infer<typeof configSchema>;

/** `*`, or a host name or address as a Host header names it (console.example.com, 10.0.0.5, [::1]), without a port. */
function isHostName(entry: string): boolean {
  if (entry === '*') return true;
  if (!URL.canParse(`http://${entry}`)) return false;
  const url = new URL(`http://${entry}`);
  return url.host === entry.toLowerCase() && url.port === '';
}

/** 10.0.0.1, ::1, 10.0.0.0/8 or fd00::/8: what TRUST_PROXY may list besides the names. */
function isAddressOrRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/** A URL on this machine (localhost, 127.0.0.1, ::1): the only place plain http is accepted for a provider. */
export function isLoopbackUrl(url: string): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);
}

/** The OpenID Connect settings when sign-in goes through a provider, else null (registration-free guest sign-in). */
export function oidcSettings(
  config: Config,
): { issuer: string; clientId: string; clientSecret: string; publicUrl: string | undefined } | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return null;
  return {
    issuer: config.OIDC_ISSUER,
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    publicUrl: config.PUBLIC_URL,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `Invalid setting ${issue.path.join('.')}: ${issue.message}`));
  }
  return parsed.data;
}

/** For entry points: a wrong setting stops the process with one clear line per problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) process.stderr.write(`${problem}\n`);
      process.exit(78);
    }
    throw error;
  }
}
