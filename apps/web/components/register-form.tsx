'use client';
import { registerInput } from '@plenum/validators';
import { useQuery } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useEffect, useMemo } from 'react';
import { useTRPC } from '../lib/trpc';
import { useRegister } from '../lib/use-register';
import { AuthPanel } from './auth-page';
import { PasswordHints } from './password-hints';
import { Alert, AlertDescription } from './ui/alert';
import { Button } from './ui/button';
import { Checkbox } from './ui/checkbox';
import {
  Form,
  FormControl,
  FormDescription,
  FormError,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
  setServerErrors,
  TextField,
  useZodForm,
} from './ui/form';
import { Input } from './ui/input';

export function RegisterForm({ linkWallet, walletAddress }: { linkWallet: boolean; walletAddress?: string }) {
  const t = useTranslations('auth');
  const trpc = useTRPC();
  // terms exist only where the server names them (TERMS_URL, docs/accounts.md, "Terms of use")
  const termsUrl = useQuery(trpc.system.info.queryOptions(undefined, { staleTime: 60_000 })).data?.termsUrl;
  const schema = useMemo(
    () =>
      termsUrl
        ? registerInput.refine((v) => v.acceptedTerms, {
            path: ['acceptedTerms'],
            message: t('acceptTerms'),
          })
        : registerInput,
    [t, termsUrl],
  );
  const { state, submit, fail } = useRegister(linkWallet);
  const form = useZodForm(schema, {
    defaultValues: {
      email: '',
      password: '',
      firstName: '',
      lastName: '',
      organizationName: '',
      acceptedTerms: false,
    },
  });
  const password = form.watch('password') ?? '';
  const error = state.step === 'failed' ? state.error : null;

  const onSubmit = form.handleSubmit(
    async ({ organizationName, ...rest }) => {
      await submit({ ...rest, ...(organizationName?.trim() ? { organizationName } : {}) });
    },
    () => fail({ message: t('fixFields'), fields: {} }),
  );

  // server-side field errors (the password policy, say) go under their fields
  useEffect(() => {
    if (error) setServerErrors(form, error);
  }, [error, form]);

  if (state.step === 'registered')
    return (
      <Alert variant="success" role="status" data-testid="registered">
        <CircleCheck aria-hidden />
        <AlertDescription>
          <p>{t('register.registered', { email: state.email })}</p>
          <p>
            <Link href="/sign-in">{t('register.signIn')}</Link> ·{' '}
            <Link href="/resend-verification">{t('register.resend')}</Link>
          </p>
        </AlertDescription>
      </Alert>
    );
  if (state.step === 'linked')
    return (
      <Alert variant="success" role="status" data-testid="registered-linked">
        <CircleCheck aria-hidden />
        <AlertDescription>
          <p>{t('register.linked', { address: state.address })}</p>
          <p>
            <Link href="/account">{t('register.goToAccount')}</Link>
          </p>
        </AlertDescription>
      </Alert>
    );

  return (
    <AuthPanel>
      <Form {...form}>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={t('register.title')}>
          {linkWallet && (
            <Alert variant="info" role="status" data-testid="link-on-register">
              <AlertDescription>
                {walletAddress
                  ? t('register.linkOnRegister', { address: walletAddress })
                  : t('register.linkOnRegisterNoAddress')}
              </AlertDescription>
            </Alert>
          )}
          <FormError error={error}>
            {state.step === 'failed' && state.signedIn && (
              <p>
                {t('register.existsSignedIn')} <Link href="/account">{t('register.yourAccount')}</Link>.
              </p>
            )}
          </FormError>
          <TextField
            form={form}
            name="email"
            label={t('fields.email')}
            type="email"
            autoComplete="email"
            required
          />
          <FormField
            control={form.control}
            name="password"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('fields.password')}</FormLabel>
                <FormControl>
                  <Input {...field} type="password" autoComplete="new-password" required />
                </FormControl>
                <FormDescription>
                  <PasswordHints password={password} />
                </FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              form={form}
              name="firstName"
              label={t('fields.firstName')}
              autoComplete="given-name"
              required
            />
            <TextField
              form={form}
              name="lastName"
              label={t('fields.lastName')}
              autoComplete="family-name"
              required
            />
          </div>
          <TextField
            form={form}
            name="organizationName"
            label={t('fields.organization')}
            autoComplete="organization"
          />
          {termsUrl && (
            <FormField
              control={form.control}
              name="acceptedTerms"
              render={({ field }) => (
                <FormItem>
                  <div className="flex items-center gap-2">
                    <FormControl>
                      <Checkbox
                        name={field.name}
                        required
                        checked={field.value === true}
                        onCheckedChange={(v) => field.onChange(v === true)}
                        onBlur={field.onBlur}
                        ref={field.ref}
                      />
                    </FormControl>
                    <FormLabel className="font-normal">
                      {t.rich('fields.termsLinked', {
                        link: (text) => (
                          <a href={termsUrl} target="_blank" rel="noopener noreferrer">
                            {text}
                          </a>
                        ),
                      })}
                    </FormLabel>
                  </div>
                  <FormMessage />
                </FormItem>
              )}
            />
          )}
          <Button type="submit" disabled={state.step === 'busy'} className="w-full">
            {state.step === 'busy' ? t(`register.${state.what}`) : t('register.submit')}
          </Button>
        </form>
      </Form>
    </AuthPanel>
  );
}
