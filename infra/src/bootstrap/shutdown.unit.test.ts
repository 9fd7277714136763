import { describe, expect, it } from 'vitest';
import type { Logger } from '../logger';
import { shutDownInOrder } from './shutdown';

function recordingLogger() {
  const warnings: string[] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(String(args.at(-1))) };
  return { warnings, logger: logger as unknown as Logger };
}

describe('shutDownInOrder', () => {
  it('runs the steps in order, one after another', async () => {
    const { logger, warnings } = recordingLogger();
    const ran: string[] = [];
    const step = (name: string, ms: number) => () => new Promise<void>((resolve) => setTimeout(() => (ran.push(name), resolve()), ms));
    await shutDownInOrder(
      logger,
      [
        ['first', step('first', 30)],
        ['second', step('second', 0)],
        ['nothing to do', () => undefined],
      ],
      1000,
    );
    expect(ran).toEqual(['first', 'second']);
    expect(warnings).toEqual([]);
  });

  it('goes on past a step that never finishes, naming it, so the later steps still run and the stop ends', async () => {
    const { logger, warnings } = recordingLogger();
    const ran: string[] = [];
    await shutDownInOrder(
      logger,
      [
        ['the stuck follower', () => new Promise(() => undefined)],
        ['the database pool', async () => void ran.push('pool')],
      ],
      50,
    );
    expect(ran).toEqual(['pool']);
    expect(warnings).toEqual(['Stopping: the stuck follower did not finish within 0.05 s; going on without it']);
  });

  it('goes on past a step that fails, naming it', async () => {
    const { logger, warnings } = recordingLogger();
    const ran: string[] = [];
    await shutDownInOrder(
      logger,
      [
        ['the gateway', async () => Promise.reject(new Error('socket already closed'))],
        ['the database pool', async () => void ran.push('pool')],
      ],
      1000,
    );
    expect(ran).toEqual(['pool']);
    expect(warnings).toEqual(['Stopping: the gateway failed; going on']);
  });
});
