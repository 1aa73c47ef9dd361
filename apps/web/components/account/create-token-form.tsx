'use client';
import { createTokenInput, DEFAULT_TOKEN_SCOPES, TOKEN_SCOPES, tokenScopes } from '@plenum/validators';
import { useTranslations } from 'next-intl';
import { z } from 'zod';
import { readable } from '../../lib/files/readable';
import { Alert, AlertDescription } from '../ui/alert';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
  setServerErrors,
  TextField,
  useZodForm,
} from '../ui/form';
import { Select } from '../ui/select';

/** the lifetimes offered, in days; 90 is the API's own default, "never" has to be chosen on purpose */
const LIFETIMES = ['30', '90', '365', 'never'] as const;
const DAY_MS = 86_400_000;

/** the token's name and scopes as the API checks them, and one of the offered lifetimes */
const tokenForm = createTokenInput
  .pick({ name: true })
  .extend({ scopes: tokenScopes, lifetime: z.enum(LIFETIMES) });

/** a lifetime → the API's expiresAt (absent: its 90 days) */
function expiresAt(lifetime: (typeof LIFETIMES)[number]): string | undefined {
  if (lifetime === 'never') return 'never';
  if (lifetime === '90') return undefined;
  return new Date(Date.now() + Number(lifetime) * DAY_MS).toISOString();
}

/**
 * The form that creates a personal access token: a name, what it may do (docs/accounts.md, "Token
 * scopes"; the API's default three ticked) and how long it lives (90 days at first; "never" says plainly
 * what that means).
 */
export function CreateTokenForm({
  create,
  pending,
}: {
  /** sends the token to the API; a refusal it throws lands on the fields it names */
  create: (input: z.input<typeof createTokenInput>) => Promise<unknown>;
  pending: boolean;
}) {
  const t = useTranslations('account.tokens');
  const defaultValues = { name: '', scopes: [...DEFAULT_TOKEN_SCOPES], lifetime: '90' as const };
  const form = useZodForm(tokenForm, { defaultValues });
  const lifetime = form.watch('lifetime');

  return (
    <Form {...form}>
      <form
        className="grid max-w-xl gap-3 sm:grid-cols-2"
        noValidate
        onSubmit={form.handleSubmit(async ({ name, scopes, lifetime }) => {
          const end = expiresAt(lifetime);
          try {
            await create({ name, scopes, ...(end ? { expiresAt: end } : {}) });
            form.reset(defaultValues);
          } catch (err) {
            setServerErrors(form, readable(err));
          }
        })}
      >
        <TextField form={form} name="name" label={t('name')} maxLength={100} />
        <FormField
          control={form.control}
          name="lifetime"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('lifetime')}</FormLabel>
              <FormControl>
                <Select {...field}>
                  {LIFETIMES.map((l) => (
                    <option key={l} value={l}>
                      {t(`lifetimes.${l}`)}
                    </option>
                  ))}
                </Select>
              </FormControl>
            </FormItem>
          )}
        />
        {lifetime === 'never' && (
          <Alert variant="warning" className="sm:col-span-2" data-testid="never-expires-warning">
            <AlertDescription>{t('neverWarning')}</AlertDescription>
          </Alert>
        )}
        <FormField
          control={form.control}
          name="scopes"
          render={({ field }) => (
            <fieldset className="m-0 grid min-w-0 gap-2 border-0 p-0 sm:col-span-2">
              <legend className="mb-1 text-sm font-medium">{t('scopes')}</legend>
              {TOKEN_SCOPES.map((scope) => (
                <FormItem key={scope} className="flex items-start gap-2">
                  <FormControl>
                    <Checkbox
                      checked={field.value.includes(scope)}
                      onCheckedChange={(on) =>
                        field.onChange(
                          on === true
                            ? TOKEN_SCOPES.filter((s) => s === scope || field.value.includes(s))
                            : field.value.filter((s) => s !== scope),
                        )
                      }
                    />
                  </FormControl>
                  <div className="grid gap-0.5">
                    <FormLabel className="font-normal">{t(`scopeNames.${scope}`)}</FormLabel>
                    <FormDescription>{t(`scopeWhat.${scope}`)}</FormDescription>
                  </div>
                </FormItem>
              ))}
              <FormItem>
                <FormMessage />
              </FormItem>
            </fieldset>
          )}
        />
        <Button type="submit" className="justify-self-start" disabled={pending}>
          {pending ? t('creating') : t('create')}
        </Button>
      </form>
    </Form>
  );
}
