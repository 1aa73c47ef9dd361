'use client';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { copyText } from '../../lib/clipboard';
import { Button } from '../ui/button';

/**
 * A button that copies a text (or what `text()` returns, e.g. a freshly signed link) and says "Copied"
 * for a few seconds, announced to screen readers through a polite live region.
 */
export function CopyButton({
  text,
  label,
  copiedLabel,
  failedLabel,
  testId,
}: {
  text: string | (() => Promise<string>);
  label: string;
  copiedLabel: string;
  failedLabel: string;
  testId?: string;
}) {
  const [state, setState] = useState<'idle' | 'busy' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied' && state !== 'failed') return;
    const timer = setTimeout(() => setState('idle'), 4000);
    return () => clearTimeout(timer);
  }, [state]);
  async function copy() {
    setState('busy');
    try {
      await copyText(typeof text === 'string' ? text : await text());
      setState('copied');
    } catch {
      setState('failed');
    }
  }
  return (
    <Button
      variant="outline"
      size="sm"
      onClick={() => void copy()}
      disabled={state === 'busy'}
      data-testid={testId}
      data-copied={state === 'copied' || undefined}
    >
      {state === 'copied' ? <Check aria-hidden /> : <Copy aria-hidden />}
      <span aria-live="polite">
        {state === 'copied' ? copiedLabel : state === 'failed' ? failedLabel : label}
      </span>
    </Button>
  );
}
