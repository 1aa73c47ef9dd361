'use client';
import { cidInput } from '@plenum/validators';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { DisplayError } from '../../lib/errors';
import { readable } from '../../lib/files/readable';
import { formValues, validate } from '../../lib/form';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert } from '../alert';
import { Field } from '../field';

/** http(s) URLs found anywhere in the document: the image fields the API resolved, shown as links */
function linksIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^https?:\/\//i.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) linksIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) linksIn(v, out);
  return out;
}

/**
 * A JSON metadata document (NFT-style) with ipfs:// image fields resolved by the API. It is shown as
 * text, never rendered, and its URLs as plain links: loading them would tell third parties who looks.
 */
export function MetadataView({ cid: requested }: { cid: string | null }) {
  const trpc = useTRPC();
  const [cid, setCid] = useState<string | null>(requested);
  const [value, setValue] = useState(requested ?? '');
  const [error, setError] = useState<DisplayError | null>(null);
  useEffect(() => {
    if (requested) {
      setCid(requested);
      setValue(requested);
    }
  }, [requested]);
  const doc = useQuery({
    ...trpc.storage.metadata.queryOptions({ cid: cid ?? '' }),
    enabled: cid !== null,
    retry: false,
  });

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setError(null);
    const checked = validate(cidInput, formValues(e.currentTarget));
    if (!checked.ok) return setError(checked.error);
    setCid(checked.data.cid);
  }

  const links = doc.data === undefined ? [] : [...new Set(linksIn(doc.data))];
  return (
    <section aria-labelledby="metadata-heading" className="stack" id="metadata">
      <h2 id="metadata-heading">Metadata</h2>
      <form className="stack" onSubmit={submit} noValidate>
        <Field
          label="Metadata CID"
          name="cid"
          autoComplete="off"
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          errors={error?.fields.cid}
        />
        <button type="submit">Show metadata</button>
      </form>
      <ErrorAlert error={error} />
      {cid && doc.isFetching && <p aria-live="polite">Reading the document…</p>}
      {doc.isError && <ErrorAlert error={readable(doc.error)} />}
      {doc.data !== undefined && !doc.isError && (
        <div className="stack" data-testid="metadata">
          <pre className="json">{JSON.stringify(doc.data, null, 2)}</pre>
          {links.length > 0 && (
            <ul className="links">
              {links.map((l) => (
                <li key={l}>
                  <a href={l} target="_blank" rel="noopener noreferrer nofollow">
                    {l}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
