'use client';
import { cidInput } from '@plenum/validators';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { Button } from '../ui/button';
import { Form, TextField, useZodForm } from '../ui/form';
import { QueryState } from '../ui/query-state';

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
  const t = useTranslations('files.metadata');
  const trpc = useTRPC();
  const [cid, setCid] = useState<string | null>(requested);
  const form = useZodForm(cidInput, { defaultValues: { cid: requested ?? '' } });
  useEffect(() => {
    if (requested) {
      setCid(requested);
      form.setValue('cid', requested);
    }
  }, [requested, form]);
  const doc = useQuery({
    ...trpc.storage.metadata.queryOptions({ cid: cid ?? '' }),
    enabled: cid !== null,
    retry: false,
  });

  return (
    <section aria-labelledby="metadata-heading" className="grid min-w-0 gap-3" id="metadata">
      <h2 id="metadata-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <Form {...form}>
        <form className="grid max-w-xl gap-3" noValidate onSubmit={form.handleSubmit((v) => setCid(v.cid))}>
          <TextField form={form} name="cid" label={t('label')} autoComplete="off" spellCheck={false} />
          <Button type="submit" variant="secondary" className="justify-self-start">
            {t('show')}
          </Button>
        </form>
      </Form>
      {cid && (
        <QueryState query={doc}>
          {(data) => {
            const links = [...new Set(linksIn(data))];
            return (
              <div className="grid min-w-0 gap-2" data-testid="metadata">
                <pre className="m-0 max-h-96 overflow-auto rounded-md border bg-muted p-3 text-xs">
                  {JSON.stringify(data, null, 2)}
                </pre>
                {links.length > 0 && (
                  <ul className="m-0 grid gap-1 pl-5 text-sm">
                    {links.map((l) => (
                      <li key={l} className="break-all">
                        <a href={l} target="_blank" rel="noopener noreferrer nofollow">
                          {l}
                        </a>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            );
          }}
        </QueryState>
      )}
    </section>
  );
}
