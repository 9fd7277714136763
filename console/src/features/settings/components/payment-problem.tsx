import { Callout, Intent } from '@blueprintjs/core';

/** A payment method's refusal or failure, in words, where the person is acting on it; nothing without one. */
export function PaymentProblem({ problem }: { problem: string | null }) {
  return problem ? (
    <Callout intent={Intent.DANGER} role="alert" compact>
      {problem}
    </Callout>
  ) : null;
}
