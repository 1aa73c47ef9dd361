import { passwordRules } from '../lib/password-policy';

/** The policy as a live checklist: each rule turns to met as the person types. */
export function PasswordHints({ password }: { password: string }) {
  const rules = passwordRules(password);
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
