'use client';
import dynamic from 'next/dynamic';
import { useFormatter, useTranslations } from 'next-intl';
import { CHART_DAYS, useRegistrations } from '../../lib/admin/use-registrations';
import { QueryState } from '../ui/query-state';
import { Skeleton } from '../ui/skeleton';

// recharts is ~100 KiB: fetched only when this chart is shown
const RegistrationsBars = dynamic(() => import('./registrations-bars'), {
  ssr: false,
  loading: () => <Skeleton className="h-48 w-full" />,
});

/** New accounts per day as a bar chart, with the numbers in a table for screen readers. */
export function RegistrationsChart() {
  const t = useTranslations('admin.chart');
  const format = useFormatter();
  const data = useRegistrations();
  return (
    <QueryState query={data}>
      {({ days, total }) => {
        const label = (day: string) =>
          format.dateTime(new Date(`${day}T00:00:00Z`), { timeZone: 'UTC', month: 'short', day: 'numeric' });
        const points = days.map((d) => ({ day: label(d.day), count: d.count }));
        return (
          <figure
            className="m-0 grid min-w-0 gap-2 rounded-xl border bg-card p-4"
            data-testid="registrations-chart"
          >
            <figcaption className="font-medium">{t('caption', { days: CHART_DAYS, total })}</figcaption>
            <div className="h-48 w-full min-w-0" aria-hidden="true">
              <RegistrationsBars points={points} name={t('series')} />
            </div>
            <table className="sr-only">
              <caption>{t('tableCaption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('day')}</th>
                  <th scope="col">{t('series')}</th>
                </tr>
              </thead>
              <tbody>
                {points.map((p) => (
                  <tr key={p.day}>
                    <td>{p.day}</td>
                    <td>{p.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </figure>
        );
      }}
    </QueryState>
  );
}
