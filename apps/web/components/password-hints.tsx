'use client';
import { useQuery } from '@tanstack/react-query';
import { Check, Circle } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { cn } from '../lib/cn';
import { passwordRules } from '../lib/password-policy';
import { useTRPC } from '../lib/trpc';

/** The policy as a live checklist: each rule turns to met as the person types. */
export function PasswordHints({ password, id }: { password: string; id?: string }) {
  const t = useTranslations('auth.passwordHints');
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions(undefined, { staleTime: 60_000 }));
  const policy = info.data?.passwordPolicy;
  const rules = passwordRules(password, policy);
  const n = (code: string) =>
    code === 'minLength' ? (policy?.minLength ?? 8) : code === 'maxLength' ? (policy?.maxLength ?? 128) : 0;
  return (
    <ul
      id={id}
      className="m-0 grid list-none gap-0.5 p-0 text-sm"
      aria-label={t('label')}
      data-testid="password-hints"
    >
      {rules.map((r) => (
        <li
          key={r.code}
          data-rule={r.code}
          data-met={r.met}
          className={cn('flex items-center gap-1.5', r.met ? 'text-success' : 'text-muted-foreground')}
        >
          {r.met ? <Check className="size-3.5" aria-hidden /> : <Circle className="size-3" aria-hidden />}
          {t(r.code as 'minLength', { n: n(r.code) })}
          <span className="sr-only">{r.met ? t('met') : t('unmet')}</span>
        </li>
      ))}
    </ul>
  );
}
