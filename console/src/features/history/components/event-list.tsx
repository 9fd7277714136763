import { Card, H2, Tag } from '@blueprintjs/core';
import { poundsAndPence, type HistoryEvent } from '@pf/events';
import { aprcText } from '../../../components/terms-figures';
import { filterKindOf, sessionNames, type FilterKind } from './timeline-model';
import { formatTime } from '../../../lib/display';

function actorText(event: HistoryEvent, session: (id: string) => string): string {
  switch (event.actor.kind) {
    case 'person':
      return `${event.actor.name}${event.actor.sessionId ? `, ${session(event.actor.sessionId)}` : ''}`;
    case 'agent':
      return `${event.actor.name} (automated)`;
    case 'system':
      return `the ${event.actor.name}`;
  }
}

/** Every event shown, in order: a button each, so the keyboard can move the moment too. */
export function EventList({
  events,
  index,
  shown,
  onPick,
}: {
  events: readonly HistoryEvent[];
  index: number;
  shown: ReadonlySet<FilterKind>;
  onPick: (i: number) => void;
}) {
  const session = sessionNames(events);
  return (
    <Card className="pf-history-events">
      <H2 className="pf-h4">Events</H2>
      <ol className="pf-history-list" data-testid="event-list">
        {events.map((event, i) =>
          shown.has(filterKindOf(event)) ? (
            <li
              key={event.id}
              data-testid="history-event"
              data-kind={filterKindOf(event)}
              data-position={event.position}
              aria-current={i === index ? 'step' : undefined}
              className={i === index ? 'pf-current' : i > index ? 'pf-future' : undefined}
            >
              <button type="button" className="pf-history-event" onClick={() => onPick(i)}>
                <span className="pf-muted pf-small">{formatTime(event.recordedAt)}</span> <Tag minimal>{event.type}</Tag> {event.summary}
                {event.figures ? (
                  <span data-testid="event-figures">
                    {' '}
                    {`${poundsAndPence(event.figures.monthlyPayment)} a month, APRC ${aprcText(event.figures)}.`}
                  </span>
                ) : null}
                <span className="pf-muted pf-small">
                  {' '}
                  — {actorText(event, session)} · position {event.position}
                </span>
              </button>
            </li>
          ) : null,
        )}
      </ol>
    </Card>
  );
}
