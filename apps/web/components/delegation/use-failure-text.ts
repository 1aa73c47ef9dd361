'use client';
import { useTranslations } from 'next-intl';
import { voteFailure } from '../../lib/governance/vote-flow';
import { useTranslateError } from '../governance/use-governance-error';

/**
 * A failed delegation change in words: rejected or unanswered in the wallet (the vote flow's texts,
 * nothing was sent), or the server's reason in the page's language (SELF_DELEGATION, NOT_A_MEMBER…).
 */
export function useFailureText() {
  const t = useTranslations('governance.confirm');
  const translate = useTranslateError();
  return (err: unknown): string => {
    const f = voteFailure(err);
    if (f.kind === 'rejected') return t('rejected');
    if (f.kind === 'timeout') return t('timeout', { minutes: f.seconds / 60 });
    return translate(f.error).message;
  };
}
