import { NonIdealState } from '@blueprintjs/core';

export function NotFound() {
  return (
    <main className="pf-centre">
      <NonIdealState icon="warning-sign" title="404 Page Not Found" description="Did you forget to add the page to the router?" />
    </main>
  );
}
