import { preferencesView, type NotificationPreferences, type PreferencesInput } from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/**
 * The signed-in user's preferences, read by several screens (Settings edits them, Notifications has its own
 * Settings tab, the bell and Market Insights obey them). Part of the live 'profile' view: a change from another
 * console refetches them.
 */
const preferencesKey = [...queryKeys.view('profile'), 'preferences'] as const;

export const usePreferences = () =>
  useQuery({ queryKey: preferencesKey, queryFn: () => api.get('/api/auth/preferences', preferencesView) });

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PreferencesInput) => api.put('/api/auth/preferences', preferencesView, input),
    onSuccess: (saved) => queryClient.setQueryData(preferencesKey, saved),
  });
}

/** The kinds with no channel connected yet (weekly digest, email, SMS) are saved off, whatever the switch says. */
export function withoutUnconnected(notifications: NotificationPreferences): NotificationPreferences {
  return { ...notifications, weeklyDigest: false, emailNotifications: false, smsNotifications: false };
}
