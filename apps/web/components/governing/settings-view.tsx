'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useDaoPermissions } from '../../lib/governing/use-dao-permissions';
import { useTRPC } from '../../lib/trpc';
import { DaoRules } from '../governance/dao-overview';
import { isMissing } from '../governance/dao-view';
import { QueryState } from '../ui/query-state';
import { DaoSettingsForm } from './dao-settings-form';
import { HistoryList } from './history-list';
import { OwnershipSection } from './ownership-section';
import { RolesSection } from './roles-section';

/**
 * A DAO's settings page: name, description and rules (owner and admins edit them, everyone else reads
 * them), the roles, ownership and the DAO's history, newest first.
 */
export function SettingsView({ daoId }: { daoId: string }) {
  const t = useTranslations('governing.settings');
  const td = useTranslations('governance.dao');
  const tp = useTranslations('governance.proposal');
  const trpc = useTRPC();
  const dao = useQuery(trpc.governance.daos.get.queryOptions({ daoId }));
  const can = useDaoPermissions(daoId);

  if (dao.isError && isMissing(dao.error))
    return (
      <div className="flex flex-col gap-3">
        <h1 className="text-2xl font-semibold">{td('notFound')}</h1>
        <p>
          <Link className="underline" href="/daos">
            {td('seeAll')}
          </Link>
          .
        </p>
      </div>
    );
  if (dao.data === undefined) return <QueryState query={dao}>{() => null}</QueryState>;
  const d = dao.data;
  const editor = can.actor('editSettings');
  return (
    <div className="flex min-w-0 flex-col gap-8">
      <header className="flex flex-col gap-2">
        <nav aria-label={tp('breadcrumb')} className="text-sm text-muted-foreground">
          <Link className="underline-offset-4 hover:underline" href={`/daos/${daoId}`}>
            {d.name}
          </Link>
          {` › ${t('crumb')}`}
        </nav>
        <h1 className="min-w-0 text-2xl font-semibold break-words">{t('title', { name: d.name })}</h1>
      </header>
      <section aria-labelledby="general-heading" className="flex flex-col gap-4">
        <h2 id="general-heading" className="text-lg font-semibold">
          {t('general')}
        </h2>
        {editor ? (
          <DaoSettingsForm dao={d} actorAddress={editor} />
        ) : (
          <>
            {!can.loading && (
              <p className="text-sm text-muted-foreground" data-testid="settings-read-only">
                {t('readOnly')}
              </p>
            )}
            <DaoRules dao={d} />
          </>
        )}
      </section>
      <RolesSection dao={d} actorAddress={can.actor('manageRoles')} />
      <OwnershipSection dao={d} actorAddress={can.actor('transferOwnership')} />
      <section aria-labelledby="history-heading" className="flex flex-col gap-4" id="history">
        <h2 id="history-heading" className="text-lg font-semibold">
          {t('history')}
        </h2>
        <HistoryList daoId={daoId} />
      </section>
    </div>
  );
}
