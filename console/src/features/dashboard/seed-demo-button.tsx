import { Button } from '@blueprintjs/core';
import { plural, USER_MESSAGES } from '@pf/events';
import { toastFailure, toastSuccess } from '../../lib/toaster';
import { useAddDemoMessages, useIsOwnDemoConversation, useSeedDemo } from './api/stats';
import { useMayWrite } from '../../components/writers-only';

/**
 * Seed Demo Data (docs/behaviour/dashboard.md). The spec reloads the page after seeding; refetching every query
 * gives the same screen without dropping the live socket or the success toast. Pressed again, the server creates
 * only the demo agents the firm lacks, and the toast says so.
 */
export function SeedDemoButton() {
  const seed = useSeedDemo();
  // An auditor creates nothing (the server answers 403): the button is hidden, RoleNotice says why.
  if (!useMayWrite()) return null;
  return (
    <Button
      icon="database"
      text="Seed Demo Data"
      loading={seed.isPending}
      onClick={() =>
        seed.mutate(undefined, {
          onSuccess: ({ agents, alreadyThere }) =>
            toastSuccess(
              agents === 0
                ? USER_MESSAGES.demoDataAlreadyThere
                : alreadyThere > 0
                  ? `${USER_MESSAGES.demoDataCreated}: ${plural(agents, 'demo agent')} your firm did not have`
                  : USER_MESSAGES.demoDataCreated,
            ),
          onError: (error) => toastFailure(USER_MESSAGES.demoDataFailed, error),
        })
      }
    />
  );
}

/**
 * Quick Actions' Add Demo Messages (docs/behaviour/conversations.md): a short exchange in this conversation, offered
 * only where the server takes it, a conversation between the firm's own demo agents (never a real negotiation).
 */
export function AddDemoMessagesButton({ conversationId }: { conversationId: number }) {
  const add = useAddDemoMessages(conversationId);
  const isDemo = useIsOwnDemoConversation(conversationId);
  if (!useMayWrite() || isDemo !== true) return null;
  return (
    <Button
      icon="database"
      text="Add Demo Messages"
      loading={add.isPending}
      onClick={() =>
        add.mutate(undefined, {
          onSuccess: ({ messages }) =>
            toastSuccess(messages > 0 ? `Added ${plural(messages, 'demo message')}` : USER_MESSAGES.demoMessagesNoneSaid),
          onError: (error) => toastFailure(USER_MESSAGES.demoMessagesFailed, error),
        })
      }
    />
  );
}
