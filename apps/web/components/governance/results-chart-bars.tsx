'use client';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Bar, BarChart, Cell, LabelList, XAxis, YAxis, type YAxisTickContentProps } from 'recharts';
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

/** a measure of text in the chart's font, from a canvas (a rough one where there is none) */
function measurer(el: HTMLElement | null): (s: string) => number {
  const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!ctx || !el) return (s) => s.length * FONT_PX * 0.6;
  ctx.font = `${FONT_PX}px ${getComputedStyle(el).fontFamily}`;
  return (s) => ctx.measureText(s).width;
}

/**
 * The recharts part of the results chart (loaded lazily by results-chart.tsx). Option names are never
 * cut: each wraps over as many lines as its axis column needs (SVG text does not wrap by itself), and
 * every band is as tall as the longest name's lines.
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
  const height = rows.length * band + 8;

  const tick = ({ x, y, payload }: YAxisTickContentProps) => {
    const name = String(payload.value);
    const parts = lines.get(name) ?? [name];
    return (
      <text
        x={Number(x)}
        y={Number(y)}
        textAnchor="end"
        fontSize={FONT_PX}
        fill="var(--foreground)"
        data-option={name}
      >
        {parts.map((part, i) => (
          <tspan
            key={i}
            x={Number(x)}
            dy={i === 0 ? -((parts.length - 1) * LINE_PX) / 2 + FONT_PX * 0.35 : LINE_PX}
          >
            {part}
          </tspan>
        ))}
      </text>
    );
  };

  return (
    <div ref={ref} className="w-full" style={{ height }}>
      {width > 0 && (
        // named as a whole by results-chart.tsx: the drawing takes no focus of its own
        <BarChart
          width={width}
          height={height}
          data={rows}
          layout="vertical"
          accessibilityLayer={false}
          margin={{ top: 4, right: LABEL_PX, bottom: 4, left: 0 }}
          barCategoryGap={6}
        >
          <XAxis type="number" domain={[0, 100]} hide />
          <YAxis
            type="category"
            dataKey="option"
            width={axis}
            tickLine={false}
            axisLine={false}
            tick={tick}
          />
          <Bar
            dataKey="percent"
            radius={[0, 4, 4, 0]}
            background={{ fill: 'var(--muted-surface)', radius: 4 }}
            isAnimationActive={false}
            minPointSize={2}
          >
            {rows.map((r) => (
              <Cell key={r.option} fill={FILL[r.tone]} />
            ))}
            <LabelList
              dataKey="label"
              position="right"
              style={{ fontSize: FONT_PX, fill: 'var(--foreground)', fontVariantNumeric: 'tabular-nums' }}
            />
          </Bar>
        </BarChart>
      )}
    </div>
  );
}
