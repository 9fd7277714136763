import { Button, ButtonGroup, Card, Checkbox, Icon, Slider, Tag } from '@blueprintjs/core';
import { readStoredEventOrNull, type HistoryEvent } from '@pf/events';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { PageHeader } from '../../../components/page-header';
import { useHistoryAt } from '../api/history';
import { EventList } from './event-list';
import { StatePanel } from './state-panel';
import { TakeoverList } from './takeover-list';
import { Timeline } from './timeline';
import { FILTER_KINDS, FILTER_LABELS, type FilterKind } from './timeline-model';
import { useReplay } from './use-replay';
import { VerifyPanel } from './verify-panel';
import './history.css';
import { formatTime } from '../../../lib/display';

const clock = (iso: string) => formatTime(iso);

/**
 * The keys a slider answers beyond Blueprint's arrows (WAI-ARIA slider pattern): Home and End to the first and last
 * event, Page Up and Page Down a tenth of the history at a time (at least one event).
 */
function scrubberKey(event: React.KeyboardEvent, index: number, count: number, pick: (i: number) => void) {
  const page = Math.max(1, Math.round(count / 10));
  const to: Record<string, number> = { Home: 0, End: count - 1, PageUp: index + page, PageDown: index - page };
  if (!(event.key in to)) return;
  event.preventDefault();
  pick(Math.min(count - 1, Math.max(0, to[event.key]!)));
}

/** The conversation's start as the contract reads it (null if it refuses the recorded one). */
function startOf(all: readonly HistoryEvent[]) {
  const recorded = all.find((e) => e.type === 'ConversationStarted');
  const event = recorded ? readStoredEventOrNull(recorded) : null;
  return event?.type === 'ConversationStarted' ? event.data : null;
}

/** The auditor's screen (docs/behaviour/history.md): timeline, scrubber and replay, the moment's thread and offers, takeovers, verify and export. */
export function HistoryScreen({ conversationId, all }: { conversationId: number; all: readonly HistoryEvent[] }) {
  const replay = useReplay(all);
  const { events, index } = replay;
  const [shown, setShown] = useState<ReadonlySet<FilterKind>>(new Set(FILTER_KINDS));
  const current = events[index];
  const moment = useHistoryAt(conversationId, current?.position ?? null);
  const latest = useHistoryAt(conversationId, events[events.length - 1]?.position ?? null);
  const started = useMemo(() => startOf(all), [all]);
  const title = started?.title;
  const names = useMemo(() => new Map((started?.participants ?? []).map((p) => [p.agentId, p.name])), [started]);
  const toggle = (kind: FilterKind) =>
    setShown((before) => {
      const next = new Set(before);
      if (next.has(kind)) next.delete(kind);
      else next.add(kind);
      return next;
    });

  return (
    <>
      <Link href={`/conversations/${conversationId}`} className="pf-back">
        <Icon icon="arrow-left" /> Back to the conversation
      </Link>
      <PageHeader
        title={`History: ${title ?? `Conversation #${conversationId}`}`}
        subtitle="Every recorded event, replayable, from the event store"
      >
        {replay.live ? (
          <>
            <Tag intent="success" icon="feed">
              Live
            </Tag>
            <Button small icon="pause" text="Pause live" onClick={replay.pauseLive} />
          </>
        ) : (
          <>
            <Tag intent="warning" icon="pause" data-testid="waiting">
              {replay.waiting === 0
                ? 'Paused: no new events yet'
                : replay.waiting === 1
                  ? '1 new event waiting'
                  : `${replay.waiting} new events waiting`}
            </Tag>
            <Button small icon="play" text="Resume live" intent="primary" onClick={replay.resumeLive} />
          </>
        )}
      </PageHeader>
      <Card className="pf-section pf-history-timeline">
        <div className="pf-history-controls">
          <ButtonGroup>
            <Button icon="step-backward" aria-label="Previous event" disabled={index <= 0} onClick={() => replay.pick(index - 1)} />
            {replay.playing ? (
              <Button icon="pause" text="Pause" onClick={replay.pause} />
            ) : (
              <Button icon="play" text="Play" onClick={replay.play} disabled={events.length < 2} />
            )}
            <Button
              icon="step-forward"
              aria-label="Next event"
              disabled={index >= events.length - 1}
              onClick={() => replay.pick(index + 1)}
            />
          </ButtonGroup>
          <span className="pf-muted" data-testid="moment">
            Event {index + 1} of {events.length}
            {current ? ` · ${clock(current.recordedAt)} · position ${current.position}` : ''}
            {replay.following ? ' · following the latest' : ''}
          </span>
          <span className="pf-history-filter" role="group" aria-label="Show kinds of event">
            {FILTER_KINDS.map((kind) => (
              <Checkbox key={kind} inline label={FILTER_LABELS[kind]} checked={shown.has(kind)} onChange={() => toggle(kind)} />
            ))}
          </span>
        </div>
        {events.length > 1 ? (
          <div className="pf-history-scrubber" onKeyDown={(event) => scrubberKey(event, index, events.length, replay.pick)}>
            <Slider
              min={0}
              max={events.length - 1}
              stepSize={1}
              value={index}
              onChange={replay.pick}
              labelStepSize={Math.max(1, Math.ceil(events.length / 6))}
              labelRenderer={(i, options) => (options?.isHandleTooltip ? `${clock(events[i]!.recordedAt)}` : String(i + 1))}
              handleHtmlProps={{ 'aria-label': 'Moment in the history (use the arrow keys)' }}
            />
          </div>
        ) : null}
        <Timeline
          events={events}
          cursor={Math.max(0, index)}
          shown={shown}
          onPick={replay.pick}
          sideName={(id) => names.get(id) ?? `Agent ${id}`}
        />
      </Card>
      <div className="pf-detail-grid pf-section">
        <StatePanel state={moment.data} />
        <div className="pf-history-side">
          <TakeoverList takeovers={latest.data?.takeovers ?? []} events={events} onShowBefore={replay.pick} />
          <VerifyPanel conversationId={conversationId} />
        </div>
      </div>
      <div className="pf-section">
        <EventList events={events} index={index} shown={shown} onPick={replay.pick} />
      </div>
    </>
  );
}
