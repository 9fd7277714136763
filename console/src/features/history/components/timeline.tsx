import type { HistoryEvent } from '@pf/events';
import { Axis, Event as VisxEvent, Group, Responsive, Scale, Shape } from '@visx/visx';
import { useMemo, type MouseEvent } from 'react';
import { ISSUES, timelineModel, type FilterKind, type TimelineModel } from './timeline-model';
import { formatTime } from '../../../lib/display';

const LANE_LABEL = 64;
const MESSAGE_LANE = 30;
const ISSUE_LANE = 46;
const GAP = 8;
const AXIS = 26;
const HEIGHT = MESSAGE_LANE + ISSUES.length * (ISSUE_LANE + GAP) + AXIS + 18;
const SIDE_COLOURS = ['#2d72d2', '#c87619', '#238551', '#9d3f9d'];

const sideColour = (model: TimelineModel, agentId: number) => SIDE_COLOURS[model.sides.indexOf(agentId) % SIDE_COLOURS.length]!;

const time = (iso: string) => formatTime(iso);

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
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  const label = `Timeline of ${plural(events.length, 'event')}: ${plural(model.messages.length, 'message')}, ${plural(model.offers.length, 'offer')}, ${plural(model.spans.length, 'manual takeover')}`;

  return (
    <svg width={width} height={HEIGHT} role="img" aria-label={label} className="pf-timeline">
      <title>{label}</title>
      <Group.Group left={LANE_LABEL} top={12}>
        {shown.has('control')
          ? model.spans.map((span) => {
              const from = x(span.from);
              const to = x(span.to ?? events.length - 1);
              return (
                <g key={span.from} data-testid="takeover-span">
                  <rect x={from} y={-8} width={Math.max(4, to - from)} height={bottom + 8} fill="#fbb360" opacity={0.25} />
                  <text x={from + 4} y={2} fontSize={10} fill="#935610">
                    {`Manual: ${span.who.replace(/ \(.*\)$/, '')}${span.to === null ? ' (still holding)' : ''}`}
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
              <circle key={m.index} cx={x(m.index)} cy={MESSAGE_LANE / 2 + 4} r={5} fill={colour(m.agentId)} stroke={m.byPerson ? '#1c2127' : 'none'} strokeWidth={2}>
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
                    return (
                      <g key={agentId}>
                        <Shape.LinePath data={points} x={(o) => x(o.index)} y={(o) => y(o.terms[issue.key])} stroke={colour(agentId)} strokeWidth={1.5} />
                        {points.map((o) => (
                          <circle key={o.index} cx={x(o.index)} cy={y(o.terms[issue.key])} r={3.5} fill={colour(agentId)} stroke={o.byPerson ? '#1c2127' : 'none'} strokeWidth={1.5}>
                            <title>{`${sideName(agentId)}: ${issue.label} ${issue.format(o.terms[issue.key])}`}</title>
                          </circle>
                        ))}
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
          numTicks={Math.min(6, events.length)}
          tickFormat={(value) => {
            const event = events[Math.round(Number(value))];
            return event ? time(event.recordedAt) : '';
          }}
          tickLabelProps={() => ({ fontSize: 10, fill: '#5f6b7c', textAnchor: 'middle' })}
        />
        <rect x={0} y={-8} width={innerWidth} height={bottom + 8} fill="transparent" onClick={pick} style={{ cursor: 'pointer' }} />
      </Group.Group>
    </svg>
  );
}

export function Timeline(props: Props) {
  const model = useMemo(() => timelineModel(props.events), [props.events]);
  return (
    <>
      <div style={{ width: '100%', height: HEIGHT }}>
        <Responsive.ParentSize debounceTime={50}>{({ width }) => (width > 0 ? <TimelineChart {...props} model={model} width={width} /> : null)}</Responsive.ParentSize>
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
