'use client';
import { isAbstain, VOTING_SYSTEM_TRAITS } from '@plenum/validators/voting-systems';
import { useTranslations } from 'next-intl';
import { byScore } from '../../lib/governance/format';
import { toneOf } from '../../lib/governance/tone';
import type { Results } from '../../lib/governance/types';
import { decidedOf } from '../../lib/governance/verdict';
import { usePercent } from '../../lib/i18n/use-format';
import ResultsChartBars, { type ChartRow } from './results-chart-bars';

/** height of one option's bar and its gap, in px, while the chart loads (one line per name) */
const ROW_PX = 36;

/**
 * The tally as a horizontal bar chart, one bar per option (highest score first, as the rows below it)
 * filled to its percent, coloured as the rows are (For, Against, Abstain, others; tokens of
 * app/globals.css, so dark mode follows). The drawing is one image to assistive technology, named with
 * every option and percent; the exact figures are the text rows of ResultBars. The caption says what the
 * percentages are shares of, for this proposal's system and options.
 */
export function ResultsChart({ results }: { results: Results }) {
  const t = useTranslations('votes.chart');
  const td = useTranslations('votes.decided');
  const formatPercent = usePercent();
  const rows: ChartRow[] = byScore(results.options).map((o) => ({
    option: o.option,
    percent: o.percent,
    label: formatPercent(o.percent),
    tone: toneOf(o.option),
  }));
  const names = results.options.map((o) => o.option);
  const summary = rows.map((r) => `${r.option} ${r.label}`).join(', ');
  const caption = [
    t('caption', { decided: td(decidedOf(results.votingSystem, names)) }),
    ...(names.some(isAbstain) ? [t('captionAbstain')] : []),
    ...(VOTING_SYSTEM_TRAITS[results.votingSystem].sharesOverlap ? [t('captionApproval')] : []),
  ].join(' ');
  return (
    <figure className="m-0 flex min-w-0 flex-col gap-1" data-testid="results-chart">
      <div
        role="img"
        aria-label={t('label', { summary })}
        className="relative w-full min-w-0 overflow-hidden"
        style={{ minHeight: rows.length * ROW_PX + 8 }}
      >
        {/* the drawing is named by this element as a whole: its <svg> (an image of its own to Playwright
            and some screen readers) stays out of the accessibility tree */}
        <div aria-hidden="true" className="w-full">
          <ResultsChartBars rows={rows} />
        </div>
      </div>
      <figcaption className="text-xs text-muted-foreground" data-testid="results-chart-caption">
        {caption}
      </figcaption>
    </figure>
  );
}
