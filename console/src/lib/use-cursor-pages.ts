import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PAGE_LIMIT_DEFAULT } from '@pf/events';
import { useDeferredValue, useState } from 'react';
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

export type CursorPages<Item> = ReturnType<typeof useCursorPages<Item, object>>;

/** What a paged screen's search box and single filter send: `filter` is the screen's own (type, status). */
export interface SearchedPageParams<Value extends string> {
  q?: string;
  filter?: Value;
  limit: number;
  cursor?: string;
}

/**
 * A paged list with a search box and one exact filter, both applied on the server (Deals, Documents, Leads,
 * My Agents): the search is deferred so typing stays quick, and either change starts again at the first page.
 */
export function useSearchedPages<Item, Value extends string>(
  key: readonly unknown[],
  fetchPage: (params: SearchedPageParams<Value>) => Promise<CursorPage<Item>>,
) {
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Value | 'all'>('all');
  const q = useDeferredValue(search.trim());
  const pages = useCursorPages(
    key,
    { q: q || undefined, filter: filter === 'all' ? undefined : filter, limit: PAGE_LIMIT_DEFAULT },
    fetchPage,
  );
  return {
    pages,
    /** The search box and filter's props (SearchFilterBar). */
    bar: { search, onSearch: setSearch, value: filter, onFilter: setFilter },
    filtered: q !== '' || filter !== 'all',
  };
}
