'use client';
import { MAX_PROPOSAL_DATA_BYTES } from '@plenum/validators';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { checkProposalJson, type JsonCheck } from '../../lib/governance/proposal-data';
import { useNumberFormat } from '../../lib/i18n/use-format';
import { FieldErrors } from '../ui/field';
import { Label } from '../ui/label';
import { Textarea } from '../ui/textarea';

/** checkProposalJson's refusal in the page's language (the parser's own detail stays as it is) */
export function useJsonMessage() {
  const t = useTranslations('governance.json');
  const { n } = useNumberFormat();
  return (check: Extract<JsonCheck, { ok: false }>) =>
    check.code === 'syntax'
      ? t('syntax', { detail: check.detail ?? '' })
      : check.code === 'tooLarge'
        ? t('tooLarge', { bytes: n(check.bytes ?? 0), max: n(MAX_PROPOSAL_DATA_BYTES) })
        : t('notObject');
}

/** The proposal's JSON data, checked as it is typed (a JSON object, at most 64 KiB). */
export function JsonEditor({
  value,
  onChange,
  errors,
}: {
  value: string;
  onChange: (text: string) => void;
  errors?: string[] | undefined;
}) {
  const id = useId();
  const t = useTranslations('governance.json');
  const { n } = useNumberFormat();
  const say = useJsonMessage();
  const check = checkProposalJson(value);
  const messages = [...new Set([...(check.ok ? [] : [say(check)]), ...(errors ?? [])])];
  return (
    <div data-slot="form-item" className="grid min-w-0 gap-1.5">
      <Label htmlFor={id}>{t('label')}</Label>
      <Textarea
        id={id}
        className="resize-y font-mono text-sm"
        rows={6}
        spellCheck={false}
        value={value}
        placeholder={'{\n  "budget": 1200\n}'}
        aria-invalid={messages.length ? true : undefined}
        aria-describedby={`${id}-status`}
        onChange={(e) => onChange(e.target.value)}
      />
      <div id={`${id}-status`} aria-live="polite">
        {messages.length ? (
          <FieldErrors name="proposalData" errors={messages} />
        ) : (
          <p className="text-sm text-success">
            {value.trim() ? t('valid', { bytes: n(check.ok ? check.bytes : 0) }) : t('empty')}
          </p>
        )}
      </div>
    </div>
  );
}
