import type { Subscription } from '../event-store/port';
import type { FollowerRun } from './supervisor';

/**
 * A subscription as a supervised run: `start` subscribes with the given onError. A subscription's caughtUp
 * also resolves when it fails (so that nobody waits forever); here a failed run never counts as caught up.
 */
export function runOf(start: (onError: (error: unknown) => void) => Subscription | Promise<Subscription>): Promise<FollowerRun> {
  let fail: (error: unknown) => void = () => undefined;
  let failed = false;
  const done = new Promise<void>((_, reject) => (fail = reject));
  done.catch(() => undefined);
  const onError = (error: unknown) => {
    failed = true;
    fail(error);
  };
  return Promise.resolve(start(onError)).then((subscription) => ({
    caughtUp: subscription.caughtUp.then(() => (failed ? done : undefined)),
    done,
    close: () => subscription.close(),
  }));
}
