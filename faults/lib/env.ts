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

/** The single node on its embedded PostgreSQL (no DATABASE_URL), with its data in `dataDir`. */
export function embeddedNodeEnv(dataDir: string, giveUpSeconds = 30): Record<string, string> {
  // An empty DATABASE_URL counts as unset, whatever the environment of the test run says.
  return { ...singleNodeEnv(''), DATA_DIR: dataDir, EMBEDDED_DATABASE_GIVE_UP_SECONDS: String(giveUpSeconds) };
}
