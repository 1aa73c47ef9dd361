'use client';
import { useRef, useState } from 'react';

/** A new token, shown this once, with a copy button (and the text selectable where copying is denied). */
export function CreatedToken({ token, name }: { token: string; name: string }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);

  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopied('yes');
    } catch {
      field.current?.select();
      setCopied('no');
    }
  }

  return (
    <div role="status" className="alert alert-info stack" data-testid="created-token">
      <p>Token “{name}” created. Copy it now: it is shown only once.</p>
      <div className="copy-row">
        <input
          ref={field}
          readOnly
          value={token}
          aria-label="New access token"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      {copied === 'yes' && <p>Copied to the clipboard.</p>}
      {copied === 'no' && <p>Copying was not allowed: the token is selected, copy it with your keyboard.</p>}
    </div>
  );
}
