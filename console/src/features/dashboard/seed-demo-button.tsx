import { Button } from '@blueprintjs/core';
import { USER_MESSAGES } from '@pf/events';
import { toastFailure, toastSuccess } from '../../lib/toaster';
import { useSeedDemo } from './api/stats';
import { useMayWrite } from '../../components/writers-only';

/**
 * Shown to everyone. The spec reloads the page after seeding; refetching every query gives the same
 * screen without dropping the live socket or the success toast.
 */
export function SeedDemoButton({ quiet = false }: { quiet?: boolean }) {
  const seed = useSeedDemo();
  // An auditor creates nothing (the server answers 403): the button is hidden, RoleNotice says why.
  if (!useMayWrite()) return null;
  return (
    <Button
      icon="database"
      text={quiet ? 'Add Demo Messages' : 'Seed Demo Data'}
      loading={seed.isPending}
      onClick={() =>
        seed.mutate(undefined, {
          onSuccess: () => toastSuccess(USER_MESSAGES.demoDataCreated),
          // On the conversation page a failure is only logged.
          onError: (error) => (quiet ? console.error(error) : toastFailure(USER_MESSAGES.demoDataFailed, error)),
        })
      }
    />
  );
}
