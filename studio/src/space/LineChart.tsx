// One overview chart in plain SVG: a line per rule over the hour's buckets, a 0-based y axis with "nice" ticks,
// time labels every 15 minutes, and a gap where a minute had no value. Read by screen readers as one image with a
// summary; the table under the charts has the numbers.
import { formatTick, linePath, maxOf, niceMax, scales, ticks } from './chart.ts';
import type { ChartLine, Frame } from './chart.ts';

const FRAME: Frame = { width: 560, height: 220, left: 48, right: 12, top: 12, bottom: 28 };

function clock(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', hour12: false });
}

export function LineChart(props: { title: string; times: number[]; lines: ChartLine[]; dashed?: ChartLine[] }) {
  const all = [...props.lines, ...(props.dashed ?? [])];
  const max = niceMax(maxOf(all.map((l) => l.values)));
  const { x, y } = scales(FRAME, props.times.length, max);
  const labelEvery = 15;
  const summary = `${props.title}, last hour, ${props.lines.length} rule${props.lines.length === 1 ? '' : 's'}; highest ${formatTick(maxOf(all.map((l) => l.values)))}`;
  return (
    <figure className="chart">
      <figcaption>{props.title}</figcaption>
      <svg viewBox={`0 0 ${FRAME.width} ${FRAME.height}`} role="img" aria-label={summary}>
        {ticks(max).map((t) => (
          <g key={t}>
            <line className="chart-grid" x1={FRAME.left} x2={FRAME.width - FRAME.right} y1={y(t)} y2={y(t)} />
            <text className="chart-tick" x={FRAME.left - 6} y={y(t) + 4} textAnchor="end">{formatTick(t)}</text>
          </g>
        ))}
        {props.times.map((t, i) => (i % labelEvery === 0 || i === props.times.length - 1) && (
          <text key={t} className="chart-tick" x={x(i)} y={FRAME.height - 8} textAnchor={i === 0 ? 'start' : i === props.times.length - 1 ? 'end' : 'middle'}>{clock(t)}</text>
        ))}
        {props.lines.map((l) => <path key={`s-${l.id}`} className="chart-line" d={linePath(l.values, x, y)} stroke={l.color} />)}
        {(props.dashed ?? []).map((l) => <path key={`d-${l.id}`} className="chart-line chart-line-dashed" d={linePath(l.values, x, y)} stroke={l.color} />)}
        {/* A lone minute has no neighbour to draw a line to: a dot shows it. */}
        {all.flatMap((l, n) => l.values.map((v, i) => v !== null && (l.values[i - 1] ?? null) === null && (l.values[i + 1] ?? null) === null
          ? <circle key={`${n}-${i}`} cx={x(i)} cy={y(v)} r={2.5} fill={l.color} /> : null))}
      </svg>
    </figure>
  );
}
