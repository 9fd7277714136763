import { allNotificationsReadAnswer, notificationReadAnswer, notificationsView, unreadCountView } from '@pf/events';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { toastFailure } from '../../../lib/toaster';

const root = queryKeys.view('notifications');

const getNotificationsQueryOptions = () =>
  queryOptions({ queryKey: [...root, 'list'], queryFn: () => api.get('/api/notifications', notificationsView) });
const getUnreadCountQueryOptions = () =>
  queryOptions({ queryKey: [...root, 'count'], queryFn: () => api.get('/api/notifications/unread-count', unreadCountView) });

export const useNotifications = () => useQuery(getNotificationsQueryOptions());
/**
 * The bell's count; a `views_changed: notifications` push refetches it. The kinds a person receives are
 * Settings → Preferences' (features/settings/api), which the Settings tab here edits too.
 */
export const useUnreadCount = (enabled = true) => useQuery({ ...getUnreadCountQueryOptions(), enabled });

/** Commands; the refetch that follows reads at their position, so it already shows them read. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post(`/api/notifications/${id}/read`, notificationReadAnswer),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: root }),
    onError: (error) => toastFailure('Failed to mark the notification as read', error),
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post('/api/notifications/read-all', allNotificationsReadAnswer),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: root }),
    onError: (error) => toastFailure('Failed to mark all notifications as read', error),
  });
}
