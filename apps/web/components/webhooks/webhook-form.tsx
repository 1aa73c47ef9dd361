'use client';
import { createWebhookInput } from '@plenum/validators';
import { useTranslations } from 'next-intl';
import { type ReactNode, useState } from 'react';
import type { z } from 'zod';
import { cn } from '../../lib/cn';
import type { DisplayError } from '../../lib/errors';
import { readable } from '../../lib/files/readable';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import {
  Form,
  FormControl,
  FormError,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
  setServerErrors,
  TextField,
  useZodForm,
} from '../ui/form';

const webhookForm = createWebhookInput.pick({ url: true, events: true });
export type WebhookFormValues = z.output<typeof webhookForm>;

/**
 * A webhook's endpoint URL and events, checked with the API's own schema; the same form adds a webhook
 * and edits one (docs/webhooks.md, "In the web app"). A refusal `submit` throws lands on the field it
 * names, the rest above the fields.
 */
export function WebhookForm({
  events,
  initial,
  submit,
  submitLabel,
  pendingLabel,
  resetOnSuccess = false,
  label,
  footer,
}: {
  /** the events this kind of webhook may carry, in the order shown */
  events: readonly string[];
  initial: WebhookFormValues;
  submit: (values: WebhookFormValues) => Promise<unknown>;
  submitLabel: string;
  pendingLabel: string;
  resetOnSuccess?: boolean;
  /** names the form for screen readers */
  label: string;
  /** shown beside the submit button (a dialog's Cancel) */
  footer?: ReactNode;
}) {
  const t = useTranslations('webhooks');
  const form = useZodForm(webhookForm, { defaultValues: initial });
  const pending = form.formState.isSubmitting;
  const [failure, setFailure] = useState<DisplayError | null>(null);

  return (
    <Form {...form}>
      <form
        aria-label={label}
        className="grid min-w-0 max-w-2xl gap-3"
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          setFailure(null);
          try {
            await submit(values);
            if (resetOnSuccess) form.reset({ ...initial });
          } catch (err) {
            const shown = readable(err);
            const unplaced = setServerErrors(form, shown);
            if (unplaced.length || Object.keys(shown.fields).length === 0) setFailure(shown);
          }
        })}
      >
        <FormError error={failure} />
        <TextField
          form={form}
          name="url"
          label={t('url')}
          type="url"
          inputMode="url"
          placeholder="https://example.org/plenum"
          maxLength={2000}
        />
        <FormField
          control={form.control}
          name="events"
          render={({ field }) => (
            <fieldset className="m-0 grid min-w-0 gap-2 border-0 p-0">
              <legend className="mb-1 text-sm font-medium">{t('events')}</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {events.map((name) => (
                  <FormItem key={name} className="flex items-center gap-2">
                    <FormControl>
                      <Checkbox
                        checked={field.value.includes(name)}
                        onCheckedChange={(on) =>
                          field.onChange(
                            on === true
                              ? events.filter((e) => e === name || field.value.includes(e))
                              : field.value.filter((e) => e !== name),
                          )
                        }
                      />
                    </FormControl>
                    <FormLabel className="font-mono text-sm font-normal break-all">{name}</FormLabel>
                  </FormItem>
                ))}
              </div>
              <FormItem>
                <FormMessage />
              </FormItem>
            </fieldset>
          )}
        />
        <div
          className={cn(
            'flex flex-col-reverse gap-2 sm:flex-row',
            footer ? 'sm:justify-end' : 'sm:justify-start',
          )}
        >
          {footer}
          <Button type="submit" disabled={pending}>
            {pending ? pendingLabel : submitLabel}
          </Button>
        </div>
      </form>
    </Form>
  );
}
