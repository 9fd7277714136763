import { Callout, Intent, Tag } from '@blueprintjs/core';
import { DEMO_SANDBOX_RULE } from '@pf/events';

/** "Demo" on an agent (or lead) made by Seed Demo Data, with the sandbox rule it lives under (visibility.ts: mayMeet). */
export function DemoBadge({ isDemo }: { isDemo?: boolean | undefined }) {
  if (!isDemo) return null;
  return (
    <Tag minimal intent={Intent.WARNING} icon="lab-test" title={DEMO_SANDBOX_RULE} data-testid="demo-badge">
      Demo
    </Tag>
  );
}

/** Said once above a list that shows demo agents: what the badge means and where the rule applies. */
export function DemoSandboxNotice({ shown }: { shown: boolean }) {
  if (!shown) return null;
  return (
    <Callout compact icon="lab-test" className="pf-section" data-testid="demo-sandbox">
      Agents marked Demo were made by Seed Demo Data. {DEMO_SANDBOX_RULE}: they are matched and negotiate only among themselves.
    </Callout>
  );
}
