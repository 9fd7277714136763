import { Callout, Card, H2, Intent } from '@blueprintjs/core';

/** Settings → Billing: the plan (docs/behaviour/settings.md), read-only; nothing here takes or shows a payment. */
export function BillingTab() {
  return (
    <div className="pf-settings-form">
      <Callout intent={Intent.WARNING}>
        <h2 className="bp6-heading pf-callout-title">Not connected to payments</h2>
        This plan is shown for information only. No payment method is stored and nothing is charged.
      </Callout>
      <Card className="pf-section" data-testid="current-plan">
        <div className="pf-muted pf-small">Current plan</div>
        <H2 className="pf-h4">Professional</H2>
        <div className="pf-info-value">£49 per month</div>
      </Card>
    </div>
  );
}
