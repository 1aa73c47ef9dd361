'use client';
import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { type AuditFilters, badAuditRange, NO_AUDIT_FILTERS } from '../../lib/admin/audit-filters';
import { getSessionToken } from '../../lib/session';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { Label } from '../ui/label';

const FIELDS = [
  { key: 'action', type: 'text' },
  { key: 'actor', type: 'text' },
  { key: 'target', type: 'text' },
  { key: 'from', type: 'date' },
  { key: 'to', type: 'date' },
] as const;

/** The audit log's filters: applied together when submitted; a day range ending before it starts is refused here. */
export function AuditFiltersForm({ onApply }: { onApply: (f: AuditFilters) => void }) {
  const t = useTranslations('admin.audit.filter');
  const id = useId();
  const [draft, setDraft] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const bad = badAuditRange(draft);
  return (
    <form
      aria-label={t('filters')}
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!bad) onApply(draft);
      }}
    >
      {FIELDS.map(({ key, type }) => (
        <div key={key} className="grid gap-1">
          <Label htmlFor={`${id}-${key}`}>{t(key)}</Label>
          <Input
            id={`${id}-${key}`}
            type={type}
            value={draft[key]}
            maxLength={254}
            aria-invalid={key === 'to' && bad ? true : undefined}
            aria-describedby={key === 'to' && bad ? `${id}-range` : undefined}
            onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
          />
        </div>
      ))}
      {bad && (
        <p id={`${id}-range`} className="m-0 text-sm text-destructive sm:col-span-2 lg:col-span-5">
          {t('badRange')}
        </p>
      )}
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-5">
        <Button type="submit" disabled={bad}>
          {t('apply')}
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            setDraft(NO_AUDIT_FILTERS);
            onApply(NO_AUDIT_FILTERS);
          }}
        >
          {t('clear')}
        </Button>
      </div>
    </form>
  );
}

/**
 * "Download CSV": the API streams the export (GET /admin/audit-log.csv); the web app signs its calls with
 * a Bearer token, which a plain link cannot carry, so the file is fetched with it and handed to the
 * browser to save under the name the API gives.
 */
export function AuditCsvDownload({ url }: { url: string }) {
  const t = useTranslations('admin.audit.filter');
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  async function download() {
    setPending(true);
    setFailed(false);
    try {
      const token = getSessionToken();
      const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new Error(String(res.status));
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'audit-log.csv';
      const href = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = href;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(href), 0);
    } catch {
      setFailed(true);
    } finally {
      setPending(false);
    }
  }
  return (
    <div className="grid gap-2">
      <Button variant="outline" className="justify-self-start" disabled={pending} onClick={download}>
        {t('download')}
      </Button>
      {failed && (
        <Alert variant="destructive" role="alert">
          <AlertDescription>{t('downloadFailed')}</AlertDescription>
        </Alert>
      )}
    </div>
  );
}
