import {
  documentChangedAnswer,
  documentLink,
  documentList,
  documentStatsView,
  documentUploadedAnswer,
  type DocumentStatus,
} from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const keys = { list: [...queryKeys.view('documents'), 'list'] as const, stats: [...queryKeys.view('documents'), 'stats'] as const };

export const useDocuments = () => useQuery({ queryKey: keys.list, queryFn: () => api.get('/api/documents', documentList) });
export const useDocumentStats = () => useQuery({ queryKey: keys.stats, queryFn: () => api.get('/api/documents/stats', documentStatsView) });

function useDocumentMutation<I, O>(run: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.view('documents') }) });
}

export const useUpload = () => useDocumentMutation((form: FormData) => api.postForm('/api/documents', documentUploadedAnswer, form));
export const useReview = () =>
  useDocumentMutation(({ id, status }: { id: string; status: DocumentStatus }) =>
    api.patch(`/api/documents/${id}`, documentChangedAnswer, { status }),
  );
/** Download counts (an event) and answers a short-lived link. */
export const useDownload = () => useDocumentMutation((id: string) => api.post(`/api/documents/${id}/downloads`, documentLink));
export const previewLink = (id: string) => api.post(`/api/documents/${id}/preview`, documentLink);
export const shareLink = (id: string) => api.post(`/api/documents/${id}/share`, documentLink);
