/** Settings for a single node under test: its own database, a free port on loopback, quiet logs, no agents unless asked. */
export function testServerEnv(databaseUrl: string, overrides: Record<string, string> = {}): Record<string, string> {
  return { DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', AUTOMATION: 'off', ...overrides };
}
