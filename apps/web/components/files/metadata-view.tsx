'use client';
import { cidInput } from '@plenum/validators';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { toDisplayError } from '../../lib/errors';
import { useTRPC } from '../../lib/trpc';
import { Alert, AlertDescription } from '../ui/alert';
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

/** a request to read a document: `at` tells two clicks on the same CID apart */
export interface MetadataRequest {
  cid: string;
  at: number;
}

/**
 * A JSON metadata document (NFT-style) read by the CID (or ipfs:// address) the person gives, with
 * ipfs:// image fields resolved by the API. It is shown as text, never rendered, and its URLs as plain
 * links: loading them would tell third parties who looks. A file that is not such a document (the API's
 * 415 NOT_JSON) is said so plainly.
 */
export function MetadataView({ request }: { request: MetadataRequest | null }) {
  const t = useTranslations('files.metadata');
  const trpc = useTRPC();
  const [cid, setCid] = useState<string | null>(request?.cid ?? null);
  const form = useZodForm(cidInput, { defaultValues: { cid: request?.cid ?? '' } });
  useEffect(() => {
    if (!request) return;
    setCid(request.cid);
    form.setValue('cid', request.cid);
  }, [request, form]);
  const doc = useQuery({
    ...trpc.storage.metadata.queryOptions({ cid: cid ?? '' }),
    enabled: cid !== null,
    retry: false,
  });
  const notJson = doc.isError && toDisplayError(doc.error).reason === 'NOT_JSON';

  return (
    <section aria-labelledby="metadata-heading" className="grid min-w-0 gap-3" id="metadata">
      <h2 id="metadata-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <p className="m-0 max-w-2xl text-sm text-muted-foreground">{t('what')}</p>
      <Form {...form}>
        <form className="grid max-w-xl gap-3" noValidate onSubmit={form.handleSubmit((v) => setCid(v.cid))}>
          <TextField form={form} name="cid" label={t('label')} autoComplete="off" spellCheck={false} />
          <Button type="submit" variant="secondary" className="justify-self-start">
            {t('show')}
          </Button>
        </form>
      </Form>
      {cid && notJson && (
        <Alert variant="info" role="status" data-testid="not-metadata">
          <AlertDescription>
            <p className="break-all">{t('notJson', { cid })}</p>
          </AlertDescription>
        </Alert>
      )}
      {cid && !notJson && (
        <QueryState query={doc}>
          {(data) => {
            const links = [...new Set(linksIn(data))];
            return (
              <div className="grid min-w-0 gap-2" data-testid="metadata">
                <pre className="m-0 max-h-96 overflow-auto rounded-md border bg-muted p-3 text-xs whitespace-pre-wrap break-all">
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
