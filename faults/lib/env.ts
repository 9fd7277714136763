/** The single node as the fault tests run it: automation on (its follower is supervised too), no reply delay, no write limit. */
export function singleNodeEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    AUTOMATION: 'on',
    AGENT_REPLY_DELAY_MS: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '1000000',
    SESSION_CACHE_MS: '2000',
  };
}
