'use client';
import { useId } from 'react';
import { checkProposalJson } from '../../lib/governance/proposal-data';

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
  const check = checkProposalJson(value);
  const messages = [...new Set([...(check.ok ? [] : [check.message]), ...(errors ?? [])])];
  return (
    <div className="field">
      <label htmlFor={id}>Proposal data (JSON, optional)</label>
      <textarea
        id={id}
        className="code"
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
          <ul className="field-errors" data-field-errors="proposalData">
            {messages.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : (
          <p className="small ok">
            {value.trim() ? `Valid JSON object, ${check.ok ? check.bytes : 0} bytes.` : 'No data.'}
          </p>
        )}
      </div>
    </div>
  );
}
