'use client';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Tone } from '../../lib/governance/tone';
import { wrapLabel } from '../../lib/governance/wrap-label';

export interface ChartRow {
  option: string;
  percent: number;
  /** the percent as shown ("62.5 %") */
  label: string;
  tone: Tone;
}

const FILL: Record<Tone, string> = {
  for: 'var(--vote-for)',
  against: 'var(--vote-against)',
  abstain: 'var(--vote-abstain)',
  other: 'var(--primary)',
};

/** a bar's band at least, and the line height of a wrapped option name, in px (results-chart.tsx) */
export const ROW_PX = 36;
const LINE_PX = 15;
const FONT_PX = 12;
/** room right of the bars for the percent */
const LABEL_PX = 56;
/** above and below the bars */
const MARGIN_PX = 4;
/** between a band's edge and its bar */
const GAP_PX = 6;
/** between an option's name and the bars, and between a bar and its percent */
const NAME_GAP_PX = 8;
const LABEL_GAP_PX = 5;
const RADIUS_PX = 4;
/** a bar at 0 % still shows */
const MIN_BAR_PX = 2;

/** a measure of text in the chart's font, from a canvas (a rough one where there is none) */
function measurer(el: HTMLElement | null): (s: string) => number {
  const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!ctx || !el) return (s) => s.length * FONT_PX * 0.6;
  ctx.font = `${FONT_PX}px ${getComputedStyle(el).fontFamily}`;
  return (s) => ctx.measureText(s).width;
}

const r4 = (n: number) => Math.round(n * 1e4) / 1e4;

/** a rectangle with corner radii [top left, top right, bottom right, bottom left], each at most half a side */
function rectPath(x: number, y: number, w: number, h: number, radii: [number, number, number, number]) {
  const most = Math.min(w / 2, h / 2);
  const [tl, tr, br, bl] = radii.map((r) => Math.min(r, most)) as [number, number, number, number];
  let d = `M${r4(x)},${r4(y + tl)}`;
  if (tl > 0) d += `A ${r4(tl)},${r4(tl)},0,0,1,${r4(x + tl)},${r4(y)}`;
  d += `L ${r4(x + w - tr)},${r4(y)}`;
  if (tr > 0) d += `A ${r4(tr)},${r4(tr)},0,0,1,${r4(x + w)},${r4(y + tr)}`;
  d += `L ${r4(x + w)},${r4(y + h - br)}`;
  if (br > 0) d += `A ${r4(br)},${r4(br)},0,0,1,${r4(x + w - br)},${r4(y + h)}`;
  d += `L ${r4(x + bl)},${r4(y + h)}`;
  if (bl > 0) d += `A ${r4(bl)},${r4(bl)},0,0,1,${r4(x)},${r4(y + h - bl)}`;
  return `${d}Z`;
}

/**
 * The drawing of the results chart: plain SVG (a charting library was most of the proposal page's
 * JavaScript for these few bars). Option names are never cut: each wraps over as many lines as its
 * column needs (SVG text does not wrap by itself), and every band is as tall as the longest name's lines.
 */
export default function ResultsChartBars({ rows }: { rows: ChartRow[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  // the names' column: a third of the chart, within bounds
  const axis = Math.round(Math.min(220, Math.max(88, width * 0.34)));
  const lines = useMemo(() => {
    const measure = measurer(ref.current);
    return new Map(rows.map((r) => [r.option, wrapLabel(r.option, axis - 12, measure)]));
  }, [rows, axis]);
  const most = Math.max(1, ...[...lines.values()].map((l) => l.length));
  const band = Math.max(ROW_PX, most * LINE_PX + 10);
  const height = rows.length * band + 2 * MARGIN_PX;
  const plot = Math.max(0, width - axis - LABEL_PX);
  const barHeight = band - 2 * GAP_PX;

  return (
    <div ref={ref} className="w-full" style={{ height }}>
      {width > 0 && (
        // named as a whole by results-chart.tsx: the drawing is not an image of its own
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          className="block"
          aria-hidden="true"
        >
          <g data-part="names">
            {rows.map((r, i) => {
              const parts = lines.get(r.option) ?? [r.option];
              const x = axis - NAME_GAP_PX;
              return (
                <text
                  key={r.option}
                  x={x}
                  y={MARGIN_PX + i * band + band / 2}
                  textAnchor="end"
                  fontSize={FONT_PX}
                  fill="var(--foreground)"
                  data-option={r.option}
                >
                  {parts.map((part, j) => (
                    <tspan
                      key={j}
                      x={x}
                      dy={j === 0 ? -((parts.length - 1) * LINE_PX) / 2 + FONT_PX * 0.35 : LINE_PX}
                    >
                      {part}
                    </tspan>
                  ))}
                </text>
              );
            })}
          </g>
          {rows.map((r, i) => {
            const y = MARGIN_PX + i * band + GAP_PX;
            const bar = Math.max(MIN_BAR_PX, (plot * r.percent) / 100);
            return (
              <g key={r.option}>
                <path
                  d={rectPath(axis, y, plot, barHeight, [RADIUS_PX, RADIUS_PX, RADIUS_PX, RADIUS_PX])}
                  fill="var(--muted-surface)"
                />
                <path
                  d={rectPath(axis, y, bar, barHeight, [0, RADIUS_PX, RADIUS_PX, 0])}
                  fill={FILL[r.tone]}
                />
              </g>
            );
          })}
          {rows.map((r, i) => {
            const x = axis + Math.max(MIN_BAR_PX, (plot * r.percent) / 100) + LABEL_GAP_PX;
            return (
              <text
                key={r.option}
                x={x}
                y={MARGIN_PX + i * band + GAP_PX + barHeight / 2}
                textAnchor="start"
                style={{ fontSize: FONT_PX, fill: 'var(--foreground)', fontVariantNumeric: 'tabular-nums' }}
              >
                <tspan x={x} dy="0.355em">
                  {r.label}
                </tspan>
              </text>
            );
          })}
        </svg>
      )}
    </div>
  );
}
