import { NonIdealState, type NonIdealStateProps } from '@blueprintjs/core';
import type { ReactNode } from 'react';

/**
 * Blueprint's NonIdealState with its title at the heading level of its place in the page (Blueprint always
 * writes an h4, which breaks the document's heading order): 1 when it is the whole page, 2 within a page.
 */
export function Problem({
  title,
  level = 2,
  description,
  ...rest
}: Omit<NonIdealStateProps, 'title'> & { title: ReactNode; level?: 1 | 2 }) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <NonIdealState
      {...rest}
      description={
        <div>
          <Heading className="bp6-heading pf-h4 pf-problem-title">{title}</Heading>
          {description ? <div>{description}</div> : null}
        </div>
      }
    />
  );
}
