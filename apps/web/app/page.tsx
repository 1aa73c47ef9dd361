'use client';
import { useQuery } from '@tanstack/react-query';
import { FolderUp, Landmark, Users } from 'lucide-react';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { Button } from '../components/ui/button';
import { Card, CardContent, CardHeader } from '../components/ui/card';
import { QueryState } from '../components/ui/query-state';
import { useTRPC } from '../lib/trpc';
import { useMe } from '../lib/use-auth';

export default function Home() {
  const t = useTranslations('shell.homePage');
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  const { signedIn } = useMe();
  const features = [
    { icon: Landmark, title: t('governanceTitle'), text: t('governanceText') },
    { icon: FolderUp, title: t('filesTitle'), text: t('filesText') },
    { icon: Users, title: t('membersTitle'), text: t('membersText') },
  ];
  return (
    <div className="grid gap-10 py-4 sm:py-8">
      <section className="grid max-w-3xl gap-4">
        <h1 className="m-0 text-3xl font-bold tracking-tight text-balance sm:text-4xl">{t('title')}</h1>
        <p className="text-lg text-muted-foreground">{t('lead')}</p>
        <div className="flex flex-wrap gap-2">
          {signedIn ? (
            <>
              <Button asChild size="lg">
                <Link href="/dashboard">{t('dashboard')}</Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link href="/account">{t('account')}</Link>
              </Button>
            </>
          ) : (
            <>
              <Button asChild size="lg">
                <Link href="/register">{t('register')}</Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link href="/sign-in">{t('signIn')}</Link>
              </Button>
            </>
          )}
          <Button asChild size="lg" variant="ghost">
            <Link href="/daos">{t('browseDaos')}</Link>
          </Button>
        </div>
      </section>
      <section aria-labelledby="features-heading" className="grid gap-4">
        <h2 id="features-heading" className="sr-only">
          {t('features')}
        </h2>
        <ul className="m-0 grid list-none gap-4 p-0 md:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title}>
              <Card className="h-full">
                <CardHeader>
                  <span className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <h3 className="m-0 text-base font-semibold">{title}</h3>
                </CardHeader>
                <CardContent className="text-sm text-muted-foreground">{text}</CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>
      <section aria-label={t('apiStatus')} data-testid="api-status" className="text-sm">
        {/* a failure says so in words, offers "Try again", and clears by itself once the API answers */}
        <QueryState query={info} loading={<p className="text-muted-foreground">{t('connecting')}</p>}>
          {(data) => (
            <p role="status" className="inline-flex items-center gap-2 text-muted-foreground">
              <span className="size-2 rounded-full bg-success" aria-hidden />
              {t('connected', { name: data.name, version: data.version })}
            </p>
          )}
        </QueryState>
      </section>
    </div>
  );
}
