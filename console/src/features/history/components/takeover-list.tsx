import { Button, Card, H2 } from '@blueprintjs/core';
import type { HistoryEvent, Takeover } from '@pf/events';
import { ISSUES, sessionNames } from './timeline-model';
import { formatTime } from '../../../lib/display';

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Who took over, in which session, when, for how long, and what they said and offered meanwhile. */
export function TakeoverList({
  takeovers,
  events,
  onShowBefore,
}: {
  takeovers: Takeover[];
  events: readonly HistoryEvent[];
  onShowBefore: (index: number) => void;
}) {
  const session = sessionNames(events);
  return (
    <Card>
      <H2 className="pf-h4">Manual takeovers</H2>
      {takeovers.length === 0 ? <p className="pf-muted">Nobody took manual control.</p> : null}
      {takeovers.map((t) => {
        const start = events.findIndex((e) => e.position === t.startPosition);
        return (
          <div key={t.startPosition} className="pf-takeover" data-testid="takeover">
            <p>
              <strong>{t.name}</strong> took control at {formatTime(t.startedAt)}
              {t.sessionId ? ` (${session(t.sessionId)})` : ''} and{' '}
              {t.endedAt ? `held it for ${duration(t.durationMs)}` : `has held it for ${duration(t.durationMs)} so far`}
              {t.endedBy ? `, until ${t.endedBy} handed it back` : ''}.
            </p>
            <ul>
              {t.messages.map((m) => (
                <li key={m.position}>Said: “{m.content}”</li>
              ))}
              {t.offers.map((o) => (
                <li key={o.position}>Offered: {ISSUES.map((issue) => issue.format(o.terms[issue.key])).join(', ')}</li>
              ))}
              {t.messages.length + t.offers.length === 0 ? <li>Said and offered nothing.</li> : null}
            </ul>
            {start > 0 ? <Button small icon="history" text="Show the moment before" onClick={() => onShowBefore(start - 1)} /> : null}
          </div>
        );
      })}
    </Card>
  );
}
