import {
  dealPage,
  documentChangedAnswer,
  documentLink,
  documentPage,
  documentStatsView,
  documentUploadedAnswer,
  PAGE_LIMIT_DEFAULT,
  type DocumentStatus,
  type DocumentType,
} from '@pf/events';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { searchParams, type SearchedPageParams } from '../../../lib/use-cursor-pages';

const keys = { stats: [...queryKeys.view('documents'), 'stats'] as const };

export const documentPageKey = [...queryKeys.view('documents'), 'page'] as const;
/** One page of the firm's documents, searched by name or deal address and filtered by type on the server. */
export const fetchDocumentPage = ({ filter, ...params }: SearchedPageParams<DocumentType>) =>
  api.get(`/api/documents/page?${searchParams({ ...params, type: filter })}`, documentPage);

/** Under ['deals'], so a push naming "deals" refreshes the deals offered for an upload. */
export const dealChoicesKey = [...queryKeys.view('deals'), 'page', 'choices'] as const;
/**
 * The deals an upload may go to that match a search, a page at most (a firm may have thousands); a cancelled
 * deal takes no more papers.
 */
export async function dealChoices(q: string | undefined) {
  const page = await api.get(`/api/deals/page?${searchParams({ q, limit: PAGE_LIMIT_DEFAULT })}`, dealPage);
  const open = page.items.filter((deal) => deal.status !== 'cancelled');
  return {
    choices: open.map((deal) => ({ value: deal.id, label: deal.propertyAddress || `${deal.borrowerName} · ${deal.lenderName}` })),
    total: page.total,
  };
}
/** Whether the firm has any deal at all (what "No documents yet" tells a person to do first). */
export const useHasDeals = () =>
  useQuery({
    queryKey: [...queryKeys.view('deals'), 'page', 'any'],
    queryFn: () => api.get(`/api/deals/page?limit=1`, dealPage),
    select: (page) => page.total > 0,
  });
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
