'use client';
import { useTranslations } from 'next-intl';
import { type PointerEvent, useRef, useState } from 'react';
import { cn } from '../../lib/cn';
import { dropIndex, moveItem, unranked } from '../../lib/governance/systems';
import { Button } from '../ui/button';

const ROW = 'flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 rounded-md border bg-card px-2 py-1.5';
const OPTION = 'min-w-0 flex-[1_1_6rem] font-semibold break-words';
const ACTIONS = 'ml-auto flex flex-wrap gap-1';

/**
 * A ranked-choice ballot: the ranked options, most preferred first, reordered by dragging their handle
 * (mouse, pen or touch: pointer events) or with the Up and Down buttons (keyboard, touch); options can
 * be left unranked. A polite live region says where a moved option landed.
 */
export function RankingBallot({
  options,
  ranking,
  onChange,
  describedBy,
}: {
  options: readonly string[];
  ranking: readonly string[];
  onChange: (ranking: string[]) => void;
  describedBy?: string | undefined;
}) {
  const t = useTranslations('governance.ballot.ranking');
  const listRef = useRef<HTMLOListElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const rest = unranked(options, ranking);

  /** keeps keyboard focus on a button of the moved option once the pressed one is disabled or gone */
  function focusLater(key: string) {
    requestAnimationFrame(() =>
      rootRef.current?.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(key)}"]`)?.focus(),
    );
  }
  function move(from: number, to: number) {
    const next = moveItem(ranking, from, to);
    const option = ranking[from];
    onChange(next);
    if (option === undefined) return;
    const at = next.indexOf(option);
    setAnnouncement(t('nowNumber', { option, rank: at + 1 }));
    if (at === 0 && to < from) focusLater(`down:${option}`);
    if (at === next.length - 1 && to > from) focusLater(`up:${option}`);
  }
  function rank(option: string) {
    const following = rest[rest.indexOf(option) + 1] ?? rest[rest.indexOf(option) - 1];
    onChange([...ranking, option]);
    setAnnouncement(t('rankedNumber', { option, rank: ranking.length + 1 }));
    focusLater(following ? `rank:${following}` : `unrank:${option}`);
  }
  function unrank(option: string) {
    onChange(ranking.filter((o) => o !== option));
    setAnnouncement(t('noLonger', { option }));
    focusLater(`rank:${option}`);
  }

  function onPointerDown(e: PointerEvent<HTMLElement>, option: string) {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDragging(option);
  }
  function onPointerMove(e: PointerEvent<HTMLElement>) {
    if (dragging === null || !listRef.current) return;
    const items = [...listRef.current.querySelectorAll<HTMLElement>('[data-rank-item]')];
    const middles = items.map((el) => {
      const r = el.getBoundingClientRect();
      return r.top + r.height / 2;
    });
    const from = ranking.indexOf(dragging);
    const to = dropIndex(middles, from, e.clientY);
    if (from !== -1 && to !== from) onChange(moveItem(ranking, from, to));
  }
  function onPointerUp() {
    if (dragging === null) return;
    setAnnouncement(t('nowNumber', { option: dragging, rank: ranking.indexOf(dragging) + 1 }));
    setDragging(null);
  }

  return (
    <div className="flex flex-col gap-4" data-testid="ranking-ballot" ref={rootRef}>
      <p className="text-sm text-muted-foreground">{t('hint')}</p>
      {ranking.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="ranking-empty">
          {t('empty')}
        </p>
      ) : (
        <ol
          className="flex flex-col gap-2"
          ref={listRef}
          aria-label={t('yours')}
          aria-describedby={describedBy}
        >
          {ranking.map((o, i) => (
            <li
              key={o}
              className={cn(ROW, dragging === o && 'border-primary shadow-md')}
              data-rank-item
              data-testid={`ranked-${o}`}
            >
              <span
                className={cn(
                  'cursor-grab touch-none px-1.5 py-1 text-lg leading-none text-muted-foreground select-none',
                  dragging === o && 'cursor-grabbing',
                )}
                aria-hidden="true"
                title={t('drag')}
                data-testid={`drag-${o}`}
                onPointerDown={(e) => onPointerDown(e, o)}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
              >
                ⠿
              </span>
              <span className="font-semibold tabular-nums">{i + 1}.</span>
              <span className={OPTION}>{o}</span>
              <span className={ACTIONS}>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={t('moveUp', { option: o })}
                  data-focus-key={`up:${o}`}
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  {t('up')}
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={t('moveDown', { option: o })}
                  data-focus-key={`down:${o}`}
                  disabled={i === ranking.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  {t('down')}
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={t('unrankOption', { option: o })}
                  data-focus-key={`unrank:${o}`}
                  onClick={() => unrank(o)}
                >
                  {t('unrank')}
                </Button>
              </span>
            </li>
          ))}
        </ol>
      )}
      {rest.length > 0 && (
        <div className="flex flex-col gap-2">
          <p className="m-0 text-sm font-semibold">{t('notRanked')}</p>
          <ul className="flex flex-col gap-2">
            {rest.map((o) => (
              <li key={o} className={ROW} data-testid={`unranked-${o}`}>
                <span className={OPTION}>{o}</span>
                <span className={ACTIONS}>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={t('rankOption', { option: o })}
                    data-focus-key={`rank:${o}`}
                    onClick={() => rank(o)}
                  >
                    {t('rank')}
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}
