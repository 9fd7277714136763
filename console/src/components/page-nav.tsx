import { Button, ButtonGroup } from '@blueprintjs/core';
import { wholeNumber } from '@pf/events';

/** Where a paged list stands and how to move: what useCursorPages answers. */
interface Pager {
  pageIndex: number;
  hasPrevious: boolean;
  hasNext: boolean;
  previous: () => void;
  next: () => void;
}

interface Props {
  noun: string;
  pager: Pager;
  pageSize: number;
  shown: number;
  total: number;
}

/** "31–60 of 10,000 agents" with Previous and Next: the place in a list read a page at a time. */
export function PageNav({ noun, pager, pageSize, shown, total }: Props) {
  const first = pager.pageIndex * pageSize + 1;
  return (
    <nav className="pf-page-nav" aria-label={`Pages of ${noun}`}>
      <span className="pf-muted" data-testid="page-range" aria-live="polite">
        {total === 0 ? `No ${noun}` : `${wholeNumber(first)}–${wholeNumber(first + shown - 1)} of ${wholeNumber(total)} ${noun}`}
      </span>
      <ButtonGroup>
        <Button icon="chevron-left" text="Previous" disabled={!pager.hasPrevious} onClick={pager.previous} />
        <Button endIcon="chevron-right" text="Next" disabled={!pager.hasNext} onClick={pager.next} />
      </ButtonGroup>
    </nav>
  );
}
