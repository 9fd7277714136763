import type { ReactNode } from 'react';
import { Pie } from '@visx/shape';
import { Group } from '@visx/group';
import { ParentSize } from '@visx/responsive';
import { Axis, BarSeries, Grid, LineSeries, Tooltip, XYChart } from '@visx/xychart';

/** Blueprint's palette, so the charts read as part of the console. */
const CHART_COLOURS = ['#2d72d2', '#238551', '#c87619', '#cd4246', '#7961db', '#00a396'];

export interface Point {
  x: string;
  y: number | null;
}
export interface Series {
  key: string;
  points: Point[];
}

const label = (s: string) => s;

/**
 * The frame both XY charts share: the figure with its accessible label and description (the SVG itself says
 * nothing to a screen reader), sized to its parent, with the grid and both axes; `children` draws the series
 * and the tooltip. The value axis spans the values shown (visx's linear scale leaves out zero unless told).
 */
function XYFrame({
  title,
  description,
  format,
  height,
  children,
}: {
  title: string;
  description: string;
  format: (value: number) => string;
  height: number;
  children: ReactNode;
}) {
  return (
    <figure className="pf-chart" role="img" aria-label={title} aria-description={description}>
      <div style={{ height }}>
        <ParentSize debounceTime={50}>
          {({ width }) =>
            width > 0 ? (
              <XYChart
                accessibilityLabel={title}
                width={width}
                height={height}
                xScale={{ type: 'band', paddingInner: 0.3 }}
                yScale={{ type: 'linear', nice: true }}
                margin={{ top: 10, right: 10, bottom: 40, left: 60 }}
              >
                <Grid columns={false} numTicks={4} />
                <Axis orientation="bottom" numTicks={Math.max(2, Math.floor(width / 90))} />
                <Axis orientation="left" numTicks={4} tickFormat={(v: number) => format(v)} />
                {children}
              </XYChart>
            ) : null
          }
        </ParentSize>
      </div>
      <figcaption className="pf-muted pf-small">{description}</figcaption>
    </figure>
  );
}

/** A line chart of one or more series over the same categories, with a tooltip naming each series' value. */
export function LineChart({
  title,
  description,
  series,
  format,
  height = 260,
}: {
  title: string;
  description: string;
  series: Series[];
  format: (value: number) => string;
  height?: number;
}) {
  return (
    <XYFrame title={title} description={description} format={format} height={height}>
      {series.map((s, index) => (
        <LineSeries
          key={s.key}
          dataKey={s.key}
          data={s.points.filter((p) => p.y !== null)}
          xAccessor={(p: Point) => p.x}
          yAccessor={(p: Point) => p.y}
          stroke={CHART_COLOURS[index % CHART_COLOURS.length]}
        />
      ))}
      <Tooltip<Point>
        showVerticalCrosshair
        snapTooltipToDatumX
        renderTooltip={({ tooltipData }) => (
          <div>
            <strong>{tooltipData?.nearestDatum ? label(tooltipData.nearestDatum.datum.x) : ''}</strong>
            {Object.entries(tooltipData?.datumByKey ?? {}).map(([key, entry]) => (
              <div key={key}>
                {key}: {entry.datum.y === null ? '–' : format(entry.datum.y)}
              </div>
            ))}
          </div>
        )}
      />
    </XYFrame>
  );
}

export function BarChart({
  title,
  description,
  points,
  format,
  height = 260,
}: {
  title: string;
  description: string;
  points: Point[];
  format: (value: number) => string;
  height?: number;
}) {
  return (
    <XYFrame title={title} description={description} format={format} height={height}>
      <BarSeries
        dataKey={title}
        data={points}
        xAccessor={(p: Point) => p.x}
        yAccessor={(p: Point) => p.y ?? 0}
        colorAccessor={() => CHART_COLOURS[0]}
      />
      <Tooltip<Point>
        renderTooltip={({ tooltipData }) =>
          tooltipData?.nearestDatum ? (
            <div>
              <strong>{tooltipData.nearestDatum.datum.x}</strong>
              <div>{format(tooltipData.nearestDatum.datum.y ?? 0)}</div>
            </div>
          ) : null
        }
      />
    </XYFrame>
  );
}

/** A pie of shares, each slice titled (the SVG tooltip) with its name and share, and a legend beside it. */
export function PieChart({
  title,
  description,
  slices,
  size = 220,
}: {
  title: string;
  description: string;
  slices: { name: string; value: number; label: string }[];
  size?: number;
}) {
  const shown = slices.filter((s) => s.value > 0);
  const radius = size / 2;
  return (
    <figure className="pf-chart pf-pie" role="img" aria-label={title} aria-description={description}>
      <svg width={size} height={size}>
        <Group top={radius} left={radius}>
          <Pie data={shown} pieValue={(s) => s.value} outerRadius={radius - 4} innerRadius={radius / 2} padAngle={0.01}>
            {(pie) =>
              pie.arcs.map((arc) => (
                <path key={arc.data.name} d={pie.path(arc) ?? ''} fill={CHART_COLOURS[slices.indexOf(arc.data) % CHART_COLOURS.length]}>
                  <title>{`${arc.data.name}: ${arc.data.label}`}</title>
                </path>
              ))
            }
          </Pie>
        </Group>
      </svg>
      <ul className="pf-legend">
        {slices.map((s, index) => (
          <li key={s.name}>
            <span className="pf-swatch" style={{ background: CHART_COLOURS[index % CHART_COLOURS.length] }} />
            {s.name}: {s.label}
          </li>
        ))}
      </ul>
      <figcaption className="pf-muted pf-small">{description}</figcaption>
    </figure>
  );
}
