import { NonIdealState } from '@blueprintjs/core';
import { PageHeader } from './page-header';

/** The deals, documents, matching, analytics, market, notifications and settings screens, until they are built. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <NonIdealState
        icon="build"
        title="Coming soon"
        description={`${title} is on its way. Agents and conversations are live today.`}
      />
    </>
  );
}
