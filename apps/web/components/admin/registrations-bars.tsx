'use client';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** The recharts part of the registrations chart (loaded lazily by registrations-chart.tsx). */
export default function RegistrationsBars({
  points,
  name,
}: {
  points: { day: string; count: number }[];
  name: string;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      {/* the numbers are in a table for screen readers: the drawing itself takes no focus */}
      <BarChart data={points} accessibilityLayer={false} margin={{ top: 4, right: 4, bottom: 0, left: -24 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" />
        <XAxis
          dataKey="day"
          tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }}
          interval="preserveStartEnd"
          minTickGap={24}
        />
        <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: 'var(--muted-foreground)' }} width={48} />
        <Tooltip
          cursor={{ fill: 'var(--accent)' }}
          contentStyle={{
            background: 'var(--popover)',
            color: 'var(--popover-foreground)',
            borderColor: 'var(--border)',
          }}
        />
        <Bar
          dataKey="count"
          name={name}
          fill="var(--primary)"
          radius={[3, 3, 0, 0]}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}
