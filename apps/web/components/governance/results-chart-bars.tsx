'use client';
import { Bar, BarChart, Cell, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import type { Tone } from '../../lib/governance/tone';

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

/** option names longer than this are cut in the axis (the rows below show them whole) */
const MAX_LABEL = 14;
const cut = (s: string) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s);

/** The recharts part of the results chart (loaded lazily by results-chart.tsx). */
export default function ResultsChartBars({ rows }: { rows: ChartRow[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      {/* named as a whole by results-chart.tsx: the drawing takes no focus of its own */}
      <BarChart
        data={rows}
        layout="vertical"
        accessibilityLayer={false}
        margin={{ top: 4, right: 56, bottom: 4, left: 0 }}
        barCategoryGap={6}
      >
        <XAxis type="number" domain={[0, 100]} hide />
        <YAxis
          type="category"
          dataKey="option"
          width={96}
          tickLine={false}
          axisLine={false}
          tick={{ fontSize: 12, fill: 'var(--foreground)' }}
          tickFormatter={cut}
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
            style={{ fontSize: 12, fill: 'var(--foreground)', fontVariantNumeric: 'tabular-nums' }}
          />
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
