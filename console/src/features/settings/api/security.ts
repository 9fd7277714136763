import { recoveryCodesView, securityView, twoFactorSetupView, type ChangePasswordInput } from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Settings → Security's sign-in protection, under the 'profile' view so another console's change refreshes it. */
const key = [...queryKeys.view('profile'), 'security'] as const;
const sessionsKey = [...queryKeys.view('profile'), 'sessions'] as const;

export const useSecurity = () => useQuery({ queryKey: key, queryFn: () => api.get('/api/auth/security', securityView) });

function useSecurityChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    // A new password or second factor ends the account's other sessions.
    onSuccess: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: sessionsKey })]),
  });
}

export const useChangePassword = () =>
  useSecurityChange((input: ChangePasswordInput) => api.put('/api/auth/password', securityView, input));
export const useStartTwoFactor = () => useMutation({ mutationFn: () => api.post('/api/auth/two-factor/setup', twoFactorSetupView) });
export const useEnableTwoFactor = () => useSecurityChange((code: string) => api.post('/api/auth/two-factor', recoveryCodesView, { code }));
export const useDisableTwoFactor = () =>
  useSecurityChange((input: { code: string } | { password: string }) => api.request('DELETE', '/api/auth/two-factor', securityView, input));
