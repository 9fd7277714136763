import { firmView, inviteView, pendingInvitationListView, type FirmRole } from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Settings → Members (docs/decisions/firms-and-visibility.md): the firm, its members and their roles. */
const key = [...queryKeys.view('profile'), 'firm'] as const;

export const useFirm = () => useQuery({ queryKey: key, queryFn: () => api.get('/api/auth/firm', firmView) });

function useFirmChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: key });
      await queryClient.invalidateQueries({ queryKey: queryKeys.user });
    },
  });
}

export const useRenameFirm = () => useFirmChange((name: string) => api.put('/api/firm', firmView, { name }));
export const useChangeRole = () =>
  useFirmChange(({ userId, role }: { userId: string; role: FirmRole }) => api.put(`/api/firm/members/${userId}`, firmView, { role }));
export const useRemoveMember = () => useFirmChange((userId: string) => api.delete(`/api/firm/members/${userId}`, firmView));
/** The invitations that still work (admins only): a new one joins the list, a revoked one leaves it. */
const invitesKey = [...key, 'invites'] as const;
export const usePendingInvites = () =>
  useQuery({ queryKey: invitesKey, queryFn: () => api.get('/api/auth/firm/invites', pendingInvitationListView) });
export const useInvite = () => useFirmChange((role: FirmRole) => api.post('/api/firm/invites', inviteView, { role }));
export const useRevokeInvite = () =>
  useFirmChange((inviteId: string) => api.delete(`/api/firm/invites/${inviteId}`, pendingInvitationListView));
export const useJoinFirm = () => useFirmChange((token: string) => api.post('/api/firm/join', firmView, { token }));
