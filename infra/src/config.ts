import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const list = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean));

/** Every setting of every service, validated once at start-up (STYLE.md habit 10). */
export const configSchema = z.object({
  PORT: port.default(5000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }).optional(),
  DATA_DIR: z.string().default('./data'),
  EVENTSTORE_URL: z
    .string()
    .regex(/^(esdb|kurrentdb|kdb)(\+discover)?:\/\//, { error: 'must be an esdb:// connection string' })
    .optional(),
  KAFKA_BROKERS: list.optional(),
  KAFKA_TOPIC: z.string().min(1).default('property-finance.events'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Origins allowed to write and to open /ws besides the server's own. */
  ALLOWED_ORIGINS: list.default([]),
  /** Commands (and sign-ins) allowed per client per minute. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  TRUST_PROXY: z.stringbool().default(false),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(24 * 14),
  /** How long a process trusts a session it has just confirmed (a revocation elsewhere takes up to this long). */
  SESSION_CACHE_MS: z.coerce.number().int().nonnegative().max(60_000).default(2000),
  /** How long a read with x-after-position waits for the projections (spec: at most 5 s). */
  READ_WAIT_TIMEOUT_MS: z.coerce.number().int().positive().max(30_000).default(5000),
  CONSOLE_DIST: z.string().optional(),
  AGENT_REPLY_DELAY_MS: z.coerce.number().int().nonnegative().default(2000),
  AUTOMATION: z.enum(['on', 'off']).default('on'),
  MATCH_THRESHOLD: z.coerce.number().min(0).max(100).default(70),
  MAX_OPEN_CONVERSATIONS: z.coerce.number().int().positive().default(3),
  NEGOTIATION_DEADLINE_ROUNDS: z.coerce.number().int().positive().default(10),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().optional(),
  /** Where a standalone realtime gateway sends commands (the command-service's base URL). */
  COMMAND_SERVICE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
});
export type Config = z.infer<typeof configSchema>;

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
    throw new ConfigError(
      parsed.error.issues.map((issue) => `Invalid setting ${issue.path.join('.')}: ${issue.message}`),
    );
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
