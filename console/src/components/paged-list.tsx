import { Spinner } from '@blueprintjs/core';
import { PAGE_LIMIT_DEFAULT } from '@pf/events';
import type { ReactNode } from 'react';
import type { CursorPages } from '../lib/use-cursor-pages';
import { PageNav } from './page-nav';
import { Problem } from './problem';

interface Props<Item> {
  pages: CursorPages<Item>;
  /** "deals", for "1–30 of 120 deals". */
  noun: string;
  /** Whether a search or filter is set: then no rows means none match, not none at all. */
  filtered: boolean;
  errorTitle: string;
  /** What a screen with no rows at all says (how they come to be). */
  empty: ReactNode;
  noMatch: ReactNode;
  children: (items: Item[]) => ReactNode;
}

/**
 * One page of a list read from the server a page at a time (docs/behaviour/console-layout.md), with where it
 * stands and Previous and Next; or the spinner, the failure, or why there is nothing to show.
 */
export function PagedList<Item>({ pages, noun, filtered, errorTitle, empty, noMatch, children }: Props<Item>) {
  const { query } = pages;
  if (query.isPending) return <Spinner className="pf-section" />;
  if (query.isError) return <Problem icon="error" title={errorTitle} description={query.error.message} />;
  const page = query.data;
  if (page.total === 0) return <>{filtered ? noMatch : empty}</>;
  return (
    <>
      {children(page.items)}
      <PageNav noun={noun} pager={pages} pageSize={PAGE_LIMIT_DEFAULT} shown={page.items.length} total={page.total} />
    </>
  );
}
