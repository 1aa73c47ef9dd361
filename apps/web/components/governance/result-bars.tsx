import { isAbstain } from '@plenum/validators/voting-systems';
import { Check, Circle, Minus, X } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { byScore } from '../../lib/governance/format';
import type { TokenRef } from '../../lib/governance/token';
import { type Tone, toneOf } from '../../lib/governance/tone';
import type { ProposalStatus, Results } from '../../lib/governance/types';
import { useAmounts } from '../../lib/governance/use-amounts';
import { decidedOf, ruleOf, type Shortfall, type Verdict, verdictOf } from '../../lib/governance/verdict';
import { usePercent } from '../../lib/i18n/use-format';
import { DateTime } from '../ui/date-time';
import { ResultsChart } from './results-chart';

/** fixed colours and icons: For green with a check, Against red with a cross, Abstain grey with a dash */
const TONES: Record<Tone, { fill: string; icon: typeof Check; text: string }> = {
  for: {
    fill: 'bg-emerald-500/25 dark:bg-emerald-400/25',
    icon: Check,
    text: 'text-emerald-700 dark:text-emerald-300',
  },
  against: { fill: 'bg-red-500/25 dark:bg-red-400/25', icon: X, text: 'text-red-700 dark:text-red-300' },
  abstain: {
    fill: 'bg-zinc-400/30 dark:bg-zinc-500/30',
    icon: Minus,
    text: 'text-zinc-600 dark:text-zinc-300',
  },
  other: { fill: 'bg-sky-500/20 dark:bg-sky-400/25', icon: Circle, text: 'text-sky-700 dark:text-sky-300' },
};

/**
 * One row per option, highest score first, filled behind its text to its percentage: score (whole weight
 * units, or a rounded decimal for weighted and quadratic; `data-weight` keeps the exact figure), votes and
 * percent (non-Abstain options as a share of the decided weight, Abstain of all weight, as the API
 * computes them). On the proposal page (not `compact`) the percentages are drawn as a chart above the
 * rows (results-chart.tsx) and the rows are text only. Under the rows two criteria bars with their own
 * ticks, support against the threshold and participation against the quorum, the rule in words and one
 * verdict (lib/governance/verdict.ts) that the bars' colours agree with; nothing about passing while the
 * results are hidden.
 */
export function ResultBars({
  results,
  compact = false,
  token = null,
  status = results.status,
  options,
}: {
  results: Results;
  compact?: boolean;
  /** a token DAO's weights are base units: shown with its decimals and symbol */
  token?: Pick<TokenRef, 'decimals' | 'symbol'> | null;
  /** the proposal's status as the page knows it (it may be a moment ahead of the results') */
  status?: ProposalStatus;
  /** the proposal's options: hidden results carry none, the rule still names For and Against */
  options?: readonly string[];
}) {
  const t = useTranslations('votes.results');
  const tc = useTranslations('governing.results');
  const formatPercent = usePercent();
  const amounts = useAmounts();
  const score = (w: string) =>
    token && /^\d+$/.test(w) ? amounts.token(w, token.decimals, token.symbol) : amounts.score(w);
  const verdict = compact ? null : verdictOf(results, status);
  const optionNames = options ?? results.options.map((o) => o.option);
  return (
    <div className="flex min-w-0 flex-col gap-3" data-testid="results">
      {results.hidden && (
        <p className="rounded-md border border-dashed p-3 text-sm" data-testid="results-hidden">
          {results.revealAt
            ? t.rich('hidden', { date: () => <DateTime value={results.revealAt ?? ''} /> })
            : t('hiddenNoDate')}
        </p>
      )}
      {!compact && !results.hidden && results.options.length > 0 && <ResultsChart results={results} />}
      <ul className="result-bars flex flex-col gap-2">
        {byScore(results.options).map((o) => {
          const tone = TONES[toneOf(o.option)];
          const Icon = tone.icon;
          const winning = results.winningOption === o.option;
          return (
            <li
              key={o.option}
              data-testid={`result-${o.option}`}
              data-weight={o.weight}
              data-percent={o.percent}
              className={`relative overflow-hidden rounded-md border ${winning ? 'border-foreground/40' : ''}`}
            >
              {compact && (
                <div
                  aria-hidden="true"
                  className={`absolute inset-y-0 left-0 ${tone.fill} transition-[width] duration-500`}
                  style={{ width: `${Math.min(100, o.percent)}%` }}
                />
              )}
              <div
                className={`relative flex flex-wrap items-center justify-between gap-x-3 px-3 ${compact ? 'py-1' : 'py-2'} text-sm`}
              >
                <span className="flex min-w-0 items-center gap-2 font-medium break-words">
                  <Icon aria-hidden="true" className={`size-4 shrink-0 ${tone.text}`} />
                  <span className="min-w-0 break-words">{o.option}</span>
                  {winning && <span className="sr-only"> {t('leading')}</span>}
                </span>
                {/* over a compact row's fill, muted grey would lose contrast: the figures take the text colour */}
                <span className={`tabular-nums ${compact ? 'text-foreground' : 'text-muted-foreground'}`}>
                  <strong className="text-foreground">{formatPercent(o.percent)}</strong> ·{' '}
                  {t('weight', { weight: score(o.weight) })} · {t('votes', { count: o.votes })}
                </span>
              </div>
            </li>
          );
        })}
      </ul>
      {!compact && <Support results={results} verdict={verdict} />}
      {!compact && <Turnout results={results} token={token} status={status} />}
      {!compact && <Rules results={results} options={optionNames} />}
      {/* a cancelled proposal decided nothing: its figures are those at cancellation */}
      {results.cancelled || status === 'CANCELLED'
        ? !compact && (
            <p className="text-sm" data-testid="cancelled-results">
              {tc('cancelled')}
            </p>
          )
        : verdict &&
          status !== 'PENDING' && <VerdictLine results={results} verdict={verdict} status={status} />}
    </div>
  );
}

/** A criterion's bar: filled to `value` %, a tick at `mark` % with its label. */
function CriterionBar({
  value,
  mark,
  label,
  met,
}: {
  value: number;
  mark: number;
  label: string;
  met: boolean;
}) {
  return (
    <div className="relative h-2 rounded-full bg-muted" aria-hidden="true">
      <div
        className={`absolute inset-y-0 left-0 rounded-full ${met ? 'bg-emerald-600 dark:bg-emerald-400' : 'bg-amber-500'}`}
        style={{ width: `${Math.min(100, value)}%` }}
      />
      {mark > 0 && (
        <div
          className="absolute -top-1 -bottom-1 w-0.5 bg-foreground"
          style={{ left: `${Math.min(100, mark)}%` }}
          title={label}
        />
      )}
    </div>
  );
}

/**
 * For's share of the decided weight against the threshold (the leader's where the options are not For and
 * Against); its tick and colour say whether that share is enough, as the verdict does.
 */
function Support({ results, verdict }: { results: Results; verdict: Verdict | null }) {
  const t = useTranslations('votes.results');
  const formatPercent = usePercent();
  if (!verdict || results.options.length === 0) return null;
  const percent = formatPercent(verdict.supportPercent);
  const threshold = formatPercent(results.threshold);
  const met = verdict.thresholdMet;
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="support" data-met={met}>
      <div className="flex flex-wrap justify-between gap-x-2">
        <span className="font-medium">{t('support')}</span>
        <span className="text-muted-foreground">
          {verdict.supportOption === null
            ? t('noLeader', { percent, threshold })
            : t('supportNeeded', { option: verdict.supportOption, percent, threshold })}{' '}
          {met ? (
            <Check className="inline size-4 text-emerald-700 dark:text-emerald-300" aria-label={t('met')} />
          ) : results.totalVotes > 0 ? (
            <X className="inline size-4 text-amber-700 dark:text-amber-300" aria-label={t('notMet')} />
          ) : null}
        </span>
      </div>
      <CriterionBar
        value={verdict.supportPercent}
        mark={results.threshold}
        label={t('thresholdMark', { value: threshold })}
        met={met}
      />
    </div>
  );
}

function Turnout({
  results,
  token,
  status,
}: {
  results: Results;
  token: Pick<TokenRef, 'decimals' | 'symbol'> | null;
  status: ProposalStatus;
}) {
  const t = useTranslations('votes.results');
  const formatPercent = usePercent();
  const amounts = useAmounts();
  const weight = (w: string) => amounts.tokenWeight(w, token);
  return (
    <div className="flex flex-col gap-1 text-sm" data-testid="turnout">
      <div className="flex flex-wrap justify-between gap-x-2">
        <span className="font-medium">{t('participation')}</span>
        <span className="text-muted-foreground">
          {t('turnout', {
            percent: formatPercent(results.turnoutPercent),
            weight: weight(results.totalWeight),
            eligible: weight(results.eligibleWeight),
            votes: results.totalVotes,
            voters: results.eligibleVoters,
          })}
        </span>
      </div>
      <CriterionBar
        value={results.turnoutPercent}
        mark={results.quorumPercent}
        label={t('quorumMark', { value: formatPercent(results.quorumPercent) })}
        met={results.quorumPercent === 0 || results.quorumReached}
      />
      <p className="text-xs" data-testid="quorum">
        {results.quorumPercent === 0
          ? t('noQuorum')
          : t(
              results.quorumReached
                ? 'quorumReached'
                : status === 'PASSED' || status === 'REJECTED'
                  ? 'quorumMissed'
                  : 'quorumNotReached',
              { quorum: formatPercent(results.quorumPercent) },
            )}
      </p>
    </div>
  );
}

/** The rule in words: what the threshold and the quorum ask of this proposal. */
function Rules({ results, options }: { results: Results; options: readonly string[] }) {
  const t = useTranslations('votes.results');
  const td = useTranslations('votes.decided');
  const formatPercent = usePercent();
  const rule = ruleOf(options);
  const threshold = formatPercent(results.threshold);
  const decided = td(decidedOf(results.votingSystem, options));
  return (
    <p className="text-xs text-muted-foreground" data-testid="rules">
      {rule.rule === 'forAgainst'
        ? t('ruleForAgainst', { threshold, for: rule.forOption, against: rule.againstOption, decided })
        : t('ruleLeader', { threshold, decided })}
      {results.quorumPercent > 0 &&
        ` ${t('ruleQuorum', {
          quorum: formatPercent(results.quorumPercent),
          abstain: options.some(isAbstain) ? 'yes' : 'no',
        })}`}
    </p>
  );
}

/**
 * The one verdict: "Passing so far." or "Not passing so far." while open, "Passed" or "Rejected" at the
 * end, with why in plain words (every criterion that fails, or what made it pass).
 */
function VerdictLine({
  results,
  verdict,
  status,
}: {
  results: Results;
  verdict: Verdict;
  status: ProposalStatus;
}) {
  const t = useTranslations('votes.verdict');
  const formatPercent = usePercent();
  const ended = status === 'PASSED' || status === 'REJECTED';
  const when = ended ? 'end' : 'now';
  const pct = (p: number) => formatPercent(p);
  const threshold = pct(results.threshold);
  const quorum = pct(results.quorumPercent);
  const option = verdict.supportOption ?? '';
  const names = { for: verdict.forOption ?? '', against: verdict.againstOption ?? '' };
  const headline = verdict.passing
    ? ended
      ? t('passed', { option: results.winningOption ?? option })
      : t('passingNow')
    : ended
      ? t('rejected')
      : t('notPassingNow');
  const reasons = verdict.passing
    ? [
        verdict.rule === 'forAgainst'
          ? t('whyForAgainst', { ...names, percent: pct(verdict.supportPercent), threshold })
          : t('whyLeader', { option, percent: pct(verdict.supportPercent), threshold }),
        ...(results.quorumPercent > 0 ? [t('whyQuorum', { quorum })] : []),
      ]
    : verdict.shortfalls.map((s) => {
        const sentence: Record<Shortfall, () => string> = {
          noVotes: () => t('noVotes', { when }),
          quorum: () => t('quorum', { when, turnout: pct(results.turnoutPercent), quorum }),
          noDecided: () => t('noDecided', { when }),
          againstAhead: () => t('againstAhead', { when, ...names }),
          tie: () =>
            verdict.rule === 'forAgainst' ? t('tieForAgainst', { when, ...names }) : t('tie', { when }),
          threshold: () => t('threshold', { when, option, percent: pct(verdict.supportPercent), threshold }),
        };
        return sentence[s]();
      });
  return (
    <p className="text-sm" data-testid={ended ? 'outcome' : 'verdict'} data-passing={verdict.passing}>
      <strong className={verdict.passing ? 'text-emerald-700 dark:text-emerald-300' : undefined}>
        {headline}
      </strong>{' '}
      {reasons.join(' ')}
    </p>
  );
}
