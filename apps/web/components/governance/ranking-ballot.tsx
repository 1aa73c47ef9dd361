'use client';
import { type PointerEvent, useRef, useState } from 'react';
import { dropIndex, moveItem, unranked } from '../../lib/governance/systems';

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
    setAnnouncement(`${option} is now number ${at + 1}.`);
    if (at === 0 && to < from) focusLater(`down:${option}`);
    if (at === next.length - 1 && to > from) focusLater(`up:${option}`);
  }
  function rank(option: string) {
    const following = rest[rest.indexOf(option) + 1] ?? rest[rest.indexOf(option) - 1];
    onChange([...ranking, option]);
    setAnnouncement(`${option} ranked number ${ranking.length + 1}.`);
    focusLater(following ? `rank:${following}` : `unrank:${option}`);
  }
  function unrank(option: string) {
    onChange(ranking.filter((o) => o !== option));
    setAnnouncement(`${option} is no longer ranked.`);
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
    setAnnouncement(`${dragging} is now number ${ranking.indexOf(dragging) + 1}.`);
    setDragging(null);
  }

  return (
    <div className="stack ranking" data-testid="ranking-ballot" ref={rootRef}>
      <p className="muted small">
        Rank the options you support, most preferred first: drag the handle ⠿ or use Up and Down. Options you
        leave unranked get nothing from your vote. When no option has more than half, the weakest is
        eliminated and its ballots count for their next choice.
      </p>
      {ranking.length === 0 ? (
        <p className="muted small" data-testid="ranking-empty">
          Nothing ranked yet.
        </p>
      ) : (
        <ol className="rank-list" ref={listRef} aria-label="Your ranking" aria-describedby={describedBy}>
          {ranking.map((o, i) => (
            <li
              key={o}
              className={`rank-row${dragging === o ? ' rank-dragging' : ''}`}
              data-rank-item
              data-testid={`ranked-${o}`}
            >
              <span
                className="drag-handle"
                aria-hidden="true"
                title="Drag to reorder"
                data-testid={`drag-${o}`}
                onPointerDown={(e) => onPointerDown(e, o)}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
              >
                ⠿
              </span>
              <span className="rank-number">{i + 1}.</span>
              <span className="rank-option">{o}</span>
              <span className="rank-actions">
                <button
                  type="button"
                  className="secondary small-button"
                  aria-label={`Move ${o} up`}
                  data-focus-key={`up:${o}`}
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  Up
                </button>
                <button
                  type="button"
                  className="secondary small-button"
                  aria-label={`Move ${o} down`}
                  data-focus-key={`down:${o}`}
                  disabled={i === ranking.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  Down
                </button>
                <button
                  type="button"
                  className="secondary small-button"
                  aria-label={`Unrank ${o}`}
                  data-focus-key={`unrank:${o}`}
                  onClick={() => unrank(o)}
                >
                  Unrank
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}
      {rest.length > 0 && (
        <div className="stack unranked">
          <p className="small rank-heading">Not ranked</p>
          <ul className="rank-list">
            {rest.map((o) => (
              <li key={o} className="rank-row" data-testid={`unranked-${o}`}>
                <span className="rank-option">{o}</span>
                <span className="rank-actions">
                  <button
                    type="button"
                    className="secondary small-button"
                    aria-label={`Rank ${o}`}
                    data-focus-key={`rank:${o}`}
                    onClick={() => rank(o)}
                  >
                    Rank
                  </button>
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
