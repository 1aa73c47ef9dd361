'use client';
import { CHART_DAYS, useRegistrations } from '../../lib/admin/use-registrations';
import { readable } from '../../lib/files/readable';
import { ErrorAlert } from '../alert';

const W = 600;
const H = 160;

/** New accounts per day as an inline SVG bar chart, with the numbers in a table for screen readers. */
export function RegistrationsChart() {
  const data = useRegistrations();
  if (data.isPending) return <p aria-live="polite">Loading registrations…</p>;
  if (data.isError) return <ErrorAlert error={readable(data.error)} />;
  const { days, total } = data.data;
  const max = Math.max(1, ...days.map((d) => d.count));
  const slot = W / days.length;
  const label = (day: string) =>
    new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, {
      timeZone: 'UTC',
      month: 'short',
      day: 'numeric',
    });
  return (
    <figure className="chart" data-testid="registrations-chart">
      <figcaption>
        Registrations, last {CHART_DAYS} days (UTC): {total}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Registrations per day, ${total} in total`}>
        <line x1={0} y1={H} x2={W} y2={H} className="axis" />
        {days.map((d, i) => {
          const h = (d.count / max) * (H - 10);
          return (
            <rect
              key={d.day}
              x={i * slot + 1}
              y={H - h}
              width={Math.max(1, slot - 2)}
              height={h}
              className="bar"
            >
              <title>
                {label(d.day)}: {d.count}
              </title>
            </rect>
          );
        })}
      </svg>
      <div className="chart-axis muted" aria-hidden="true">
        <span>{label(days[0]?.day ?? '')}</span>
        <span>busiest day: {max}</span>
        <span>{label(days.at(-1)?.day ?? '')}</span>
      </div>
      <table className="sr-only">
        <caption>Registrations per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">New accounts</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
