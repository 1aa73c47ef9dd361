import { useQuery } from '@tanstack/react-query';
import { passwordRules } from '../lib/password-policy';
import { useTRPC } from '../lib/trpc';

/** The policy as a live checklist: each rule turns to met as the person types. */
export function PasswordHints({ password }: { password: string }) {
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions(undefined, { staleTime: 60_000 }));
  const rules = passwordRules(password, info.data?.passwordPolicy);
  return (
    <ul className="hints" aria-label="Password requirements" data-testid="password-hints">
      {rules.map((r) => (
        <li key={r.code} data-rule={r.code} data-met={r.met} className={r.met ? 'met' : 'unmet'}>
          <span aria-hidden="true">{r.met ? '✓' : '○'}</span> {r.label}
          <span className="sr-only">{r.met ? ' (met)' : ' (not yet)'}</span>
        </li>
      ))}
    </ul>
  );
}
