import { Callout, Card, H4, Intent } from '@blueprintjs/core';

/** Settings → Billing: the plan of spec §9, read-only; nothing here takes or shows a payment. */
export function BillingTab() {
  return (
    <div className="pf-settings-form">
      <Callout intent={Intent.WARNING} title="Not connected to payments">
        This plan is shown for information only. No payment method is stored and nothing is charged.
      </Callout>
      <Card className="pf-section" data-testid="current-plan">
        <div className="pf-muted pf-small">Current plan</div>
        <H4>Professional</H4>
        <div className="pf-info-value">£49 per month</div>
      </Card>
    </div>
  );
}
