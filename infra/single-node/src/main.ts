import { ConfigError } from '@pf/infra';
import { startSingleNode } from './server';

try {
  const server = await startSingleNode(process.env);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: stopping\n`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (error) {
  if (error instanceof ConfigError) {
    for (const problem of error.problems) process.stderr.write(`${problem}\n`);
    process.exit(78);
  }
  // One sentence, not a stack trace (the stack with LOG_LEVEL=debug).
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Could not start: ${message}\n`);
  if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') process.stderr.write(`${(error as Error)?.stack ?? ''}\n`);
  process.exit(1);
}
