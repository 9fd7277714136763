import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useStateFrom } from './use-state-from';

/** The query string of a paged read, leaving out what is not set. */
export const searchParams = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(params).flatMap(([key, value]) => (value === undefined || value === '' ? [] : [[key, String(value)]])),
  ).toString();

export interface CursorPage<Item> {
  items: Item[];
  nextCursor: string | null;
  total: number;
}

/**
 * A list read from the server one page at a time (docs/behaviour/console-layout.md): the cursors of the pages
 * before are kept so Previous goes back; a new search or filter starts again at the first page. Only one page
 * is ever drawn, so a book of 10,000 costs what 30 cost.
 */
export function useCursorPages<Item, Params extends object>(
  key: readonly unknown[],
  params: Params,
  fetchPage: (params: Params & { cursor?: string }) => Promise<CursorPage<Item>>,
) {
  // Other search or filters start again from the first page.
  const [cursors, setCursors] = useStateFrom<(string | undefined)[]>(() => [undefined], [JSON.stringify(params)]);
  const cursor = cursors[cursors.length - 1];
  const query = useQuery({
    queryKey: [...key, params, cursor ?? null],
    queryFn: () => fetchPage({ ...params, ...(cursor ? { cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const pageIndex = cursors.length - 1;
  return {
    query,
    pageIndex,
    hasPrevious: pageIndex > 0,
    hasNext: Boolean(query.data?.nextCursor),
    previous: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    next: () => {
      const nextCursor = query.data?.nextCursor;
      if (nextCursor) setCursors((list) => [...list, nextCursor]);
    },
  };
}

/**
 * A list the server still answers whole, drawn a page at a time so the page's size does not grow with the book
 * (the list itself is still read whole: the server pages only agents and conversations so far).
 */
export function useSlicePages<Item>(items: readonly Item[], pageSize: number, resetKey: string) {
  const [pageIndex, setPageIndex] = useStateFrom(() => 0, [resetKey]);
  const last = Math.max(0, Math.ceil(items.length / pageSize) - 1);
  const index = Math.min(pageIndex, last);
  return {
    items: items.slice(index * pageSize, (index + 1) * pageSize),
    pageIndex: index,
    hasPrevious: index > 0,
    hasNext: index < last,
    previous: () => setPageIndex(Math.max(0, index - 1)),
    next: () => setPageIndex(Math.min(last, index + 1)),
  };
}
