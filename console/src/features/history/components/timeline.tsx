import type { HistoryEvent } from '@pf/events';
import { Axis, Event as VisxEvent, Group, Responsive, Scale, Shape } from '@visx/visx';
import { useMemo, useState, type MouseEvent } from 'react';
import { axisTicks, ISSUES, timelineModel, type FilterKind, type TickResolution, type TimelineModel } from './timeline-model';
import { formatDateTime, formatTime } from '../../../lib/display';

const LANE_LABEL = 64;
const MESSAGE_LANE = 30;
const ISSUE_LANE = 46;
const GAP = 8;
const AXIS = 26;
const HEIGHT = MESSAGE_LANE + ISSUES.length * (ISSUE_LANE + GAP) + AXIS + 18;
/** Room an axis label needs, and the spacing at which every point can carry its value. */
const TICK_ROOM = 84;
const VALUE_ROOM = 72;
const SIDE_COLOURS = ['#2d72d2', '#c87619', '#238551', '#9d3f9d'];

const sideColour = (model: TimelineModel, agentId: number) => SIDE_COLOURS[model.sides.indexOf(agentId) % SIDE_COLOURS.length]!;

const time = (iso: string) => formatTime(iso);
const tickLabel = (ms: number, resolution: TickResolution) =>
  resolution === 'day'
    ? formatDateTime(ms, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })
    : formatTime(
        ms,
        resolution === 'minute' ? { hour: '2-digit', minute: '2-digit' } : { hour: '2-digit', minute: '2-digit', second: '2-digit' },
      );

interface Props {
  events: readonly HistoryEvent[];
  cursor: number;
  shown: ReadonlySet<FilterKind>;
  onPick: (index: number) => void;
  sideName: (agentId: number) => string;
}

/**
 * The conversation on one time line (visx): messages as dots per side, each offer's four issues (rate, loan,
 * term, fee) as points joined per side, manual takeovers as shaded spans, and the moment looked at as a
 * line. Events are spaced by their order, not their clock time, so a burst stays readable; the axis tells
 * the time. Clicking picks the nearest event; the scrubber beside it does the same from the keyboard.
 */
function TimelineChart({ events, cursor, shown, onPick, sideName, width, model }: Props & { width: number; model: TimelineModel }) {
  const innerWidth = Math.max(120, width - LANE_LABEL - 16);
  const x = Scale.scaleLinear({ domain: [0, Math.max(1, events.length - 1)], range: [8, innerWidth - 8] });
  const colour = (agentId: number) => sideColour(model, agentId);
  const laneTop = (lane: number) => MESSAGE_LANE + GAP + lane * (ISSUE_LANE + GAP);
  const bottom = laneTop(ISSUES.length);

  const pick = (event: MouseEvent<SVGRectElement>) => {
    const point = VisxEvent.localPoint(event);
    if (!point) return;
    const index = Math.round(x.invert(point.x - LANE_LABEL));
    onPick(Math.min(events.length - 1, Math.max(0, index)));
  };
  const [active, setActive] = useState<string | null>(null);
  const times = useMemo(() => events.map((e) => Date.parse(e.recordedAt)), [events]);
  const ticks = useMemo(() => axisTicks(times, innerWidth / TICK_ROOM, tickLabel), [times, innerWidth]);
  // Each point carries its value when the points stand far enough apart; otherwise the first and last of each
  // side do, and every point shows its value on hover or keyboard focus.
  const roomy = (agentId: number) => {
    const points = model.offers.filter((o) => o.agentId === agentId);
    return points.every((o, i) => i === 0 || x(o.index) - x(points[i - 1]!.index) >= VALUE_ROOM);
  };
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const label = `Timeline of ${plural(events.length, 'event')}: ${plural(model.messages.length, 'message')}, ${plural(model.offers.length, 'offer')}, ${plural(model.spans.length, 'manual takeover')}`;

  return (
    <svg width={width} height={HEIGHT} role="group" aria-label={label} className="pf-timeline">
      <Group.Group left={LANE_LABEL} top={12}>
        <rect x={0} y={-8} width={innerWidth} height={bottom + 8} fill="transparent" onClick={pick} style={{ cursor: 'pointer' }} />
        {shown.has('control')
          ? model.spans.map((span) => {
              const from = x(span.from);
              const to = x(span.to ?? events.length - 1);
              const words = `Taken over by ${span.who.replace(/ \(.*\)$/, '')}${span.to === null ? ' (still holding)' : ''}`;
              return (
                <g key={span.from} data-testid="takeover-span">
                  <rect
                    x={from}
                    y={-8}
                    width={Math.max(4, to - from)}
                    height={bottom + 8}
                    fill="#fbb360"
                    opacity={0.25}
                    pointerEvents="none"
                  />
                  {/* Anchored to the right edge when it would run past it (about 5.5 px a character at 10 px). */}
                  <text
                    x={from + 4 + words.length * 5.5 > innerWidth ? innerWidth : from + 4}
                    textAnchor={from + 4 + words.length * 5.5 > innerWidth ? 'end' : 'start'}
                    y={2}
                    fontSize={10}
                    fill="#77450d"
                  >
                    {words}
                  </text>
                </g>
              );
            })
          : null}
        <text x={-8} y={MESSAGE_LANE / 2 + 8} fontSize={11} textAnchor="end" fill="#5f6b7c">
          Messages
        </text>
        {shown.has('message')
          ? model.messages.map((m) => (
              <circle
                key={m.index}
                cx={x(m.index)}
                cy={MESSAGE_LANE / 2 + 4}
                r={5}
                fill={colour(m.agentId)}
                stroke={m.byPerson ? '#1c2127' : 'none'}
                strokeWidth={2}
              >
                <title>{`${sideName(m.agentId)}${m.byPerson ? ' (a person)' : ''}, ${time(events[m.index]!.recordedAt)}`}</title>
              </circle>
            ))
          : null}
        {ISSUES.map((issue, lane) => {
          const values = model.offers.map((o) => o.terms[issue.key]);
          const [low, high] = values.length ? [Math.min(...values), Math.max(...values)] : [0, 1];
          const pad = high === low ? Math.max(1, Math.abs(high) * 0.05) : (high - low) * 0.15;
          const y = Scale.scaleLinear({ domain: [low - pad, high + pad], range: [laneTop(lane) + ISSUE_LANE, laneTop(lane)] });
          return (
            <g key={issue.key} data-testid={`lane-${issue.key}`}>
              <line x1={0} x2={innerWidth} y1={laneTop(lane) + ISSUE_LANE} y2={laneTop(lane) + ISSUE_LANE} stroke="#e5e8eb" />
              <text x={-8} y={laneTop(lane) + ISSUE_LANE / 2 + 4} fontSize={11} textAnchor="end" fill="#5f6b7c">
                {issue.label}
              </text>
              {shown.has('offer')
                ? model.sides.map((agentId) => {
                    const points = model.offers.filter((o) => o.agentId === agentId);
                    const everyValue = roomy(agentId);
                    return (
                      <g key={agentId}>
                        <Shape.LinePath
                          data={points}
                          x={(o) => x(o.index)}
                          y={(o) => y(o.terms[issue.key])}
                          stroke={colour(agentId)}
                          strokeWidth={1.5}
                        />
                        {points.map((o, i) => {
                          const key = `${issue.key}-${o.index}`;
                          const value = issue.format(o.terms[issue.key]);
                          const said = `${sideName(agentId)}${o.byPerson ? ' (a person)' : ''}, ${issue.label} ${value}, ${time(events[o.index]!.recordedAt)}`;
                          const shown = active === key || everyValue || i === 0 || i === points.length - 1;
                          const px = x(o.index);
                          const py = y(o.terms[issue.key]);
                          return (
                            <g
                              key={o.index}
                              tabIndex={0}
                              role="img"
                              aria-label={said}
                              className="pf-timeline-point"
                              data-testid="offer-point"
                              onMouseEnter={() => setActive(key)}
                              onMouseLeave={() => setActive((now) => (now === key ? null : now))}
                              onFocus={() => setActive(key)}
                              onBlur={() => setActive((now) => (now === key ? null : now))}
                            >
                              <circle
                                cx={px}
                                cy={py}
                                r={active === key ? 5.5 : 3.5}
                                fill={colour(agentId)}
                                stroke={o.byPerson ? '#1c2127' : 'none'}
                                strokeWidth={1.5}
                              />
                              {shown ? (
                                <text
                                  x={px}
                                  y={py - 6}
                                  fontSize={10}
                                  fontWeight={active === key ? 700 : 400}
                                  textAnchor={px < 40 ? 'start' : px > innerWidth - 40 ? 'end' : 'middle'}
                                  fill="#1c2127"
                                  paintOrder="stroke"
                                  stroke="#ffffff"
                                  strokeWidth={3}
                                  data-testid="offer-value"
                                >
                                  {value}
                                </text>
                              ) : null}
                            </g>
                          );
                        })}
                      </g>
                    );
                  })
                : null}
            </g>
          );
        })}
        <line x1={x(cursor)} x2={x(cursor)} y1={-8} y2={bottom} stroke="#1c2127" strokeWidth={2} data-testid="timeline-cursor" />
        <Axis.AxisBottom
          top={bottom}
          scale={x}
          tickValues={ticks.map((t) => t.index)}
          tickFormat={(value) => ticks.find((t) => t.index === Number(value))?.label ?? ''}
          tickLabelProps={(value) => {
            const at = x(Number(value));
            return {
              fontSize: 10,
              fill: '#404854',
              textAnchor: at < 30 ? 'start' : at > innerWidth - 30 ? 'end' : 'middle',
              'data-testid': 'axis-tick',
            };
          }}
        />
      </Group.Group>
    </svg>
  );
}

export function Timeline(props: Props) {
  const model = useMemo(() => timelineModel(props.events), [props.events]);
  return (
    <>
      <div style={{ width: '100%', height: HEIGHT }}>
        <Responsive.ParentSize debounceTime={50}>
          {({ width }) => (width > 0 ? <TimelineChart {...props} model={model} width={width} /> : null)}
        </Responsive.ParentSize>
      </div>
      <div className="pf-timeline-legend pf-small">
        {model.sides.map((agentId) => (
          <span key={agentId}>
            <svg width={10} height={10} aria-hidden="true">
              <circle cx={5} cy={5} r={5} fill={sideColour(model, agentId)} />
            </svg>{' '}
            {props.sideName(agentId)}
          </span>
        ))}
        <span>Ringed: said or offered by a person · shaded: manual control</span>
      </div>
    </>
  );
}
