'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useId, useState } from 'react';
import { useMyWallets } from '../../lib/governance/use-my-wallets';
import { useTRPC } from '../../lib/trpc';
import { useViewerReads } from '../../lib/use-viewer-reads';
import { Address } from '../ui/address';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { DateTime } from '../ui/date-time';
import { Input } from '../ui/input';
import { Pager } from '../ui/pager';
import { QueryState } from '../ui/query-state';
import { Select } from '../ui/select';
import { Textarea } from '../ui/textarea';
import { Markdown } from './markdown';
import { useGovernanceError } from './use-governance-error';

const MAX_DEPTH = 2;
const LIMIT = 20;

interface Comment {
  id: string;
  parentId: string | null;
  depth: number;
  authorAddress: string;
  body: string | null;
  createdAt: string;
  edited: boolean;
  deleted: boolean;
  hidden: boolean;
  hiddenReason: string | null;
  replies?: Comment[];
}

/**
 * A proposal's discussion under its description (docs/discussion.md): the thread, kept current by the
 * page's live events (lib/governance/use-proposal-live.ts), a form to post and reply, edit and delete for
 * one's own comments, hide and unhide for the DAO's moderators. Bodies render through the same sanitizing
 * markdown as descriptions.
 */
export function ProposalComments({ proposalId }: { proposalId: string }) {
  const t = useTranslations('governance.comments');
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [order, setOrder] = useState<'oldest' | 'newest'>('oldest');
  // a moderator reads hidden text: read again as the viewer once hydrated
  useViewerReads([trpc.governance.comments.list.queryKey({ proposalId })]);
  const thread = useQuery({
    ...trpc.governance.comments.list.queryOptions({ proposalId, page, order, limit: LIMIT }),
    placeholderData: keepPreviousData,
  });
  const mine = useMyWallets();
  const canWrite = mine.signedIn && mine.wallets.length > 0;
  const moderator = thread.data?.moderator ?? false;
  const orderId = useId();

  return (
    <section aria-labelledby="comments-heading" className="flex flex-col gap-3" data-testid="comments">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="comments-heading" className="text-lg font-semibold">
          {t('heading', { count: thread.data?.counts.comments ?? 0 })}
        </h2>
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={orderId} className="whitespace-nowrap">
            {t('order')}
          </label>
          <Select
            id={orderId}
            className="h-9 w-auto text-sm"
            wrapperClassName="w-auto"
            value={order}
            onChange={(e) => {
              setOrder(e.target.value as 'oldest' | 'newest');
              setPage(1);
            }}
          >
            <option value="oldest">{t('oldest')}</option>
            <option value="newest">{t('newest')}</option>
          </Select>
        </div>
      </div>
      {canWrite ? (
        <CommentForm proposalId={proposalId} label={t('new')} submit={t('post')} testId="comment-form" />
      ) : (
        <p className="text-sm text-muted-foreground">{mine.signedIn ? t('needWallet') : t('signIn')}</p>
      )}
      <QueryState query={thread}>
        {(data) =>
          data.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">{t('empty')}</p>
          ) : (
            <ol className="flex flex-col gap-3">
              {data.items.map((c) => (
                <CommentItem
                  key={c.id}
                  comment={c}
                  proposalId={proposalId}
                  canWrite={canWrite}
                  moderator={moderator}
                />
              ))}
            </ol>
          )
        }
      </QueryState>
      <Pager
        page={page}
        pageCount={thread.data?.pagination.totalPages ?? 1}
        onPageChange={setPage}
        label={t('pages')}
      />
    </section>
  );
}

function useRefreshThread(proposalId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({ queryKey: trpc.governance.comments.list.queryKey({ proposalId }) });
}

function CommentForm({
  proposalId,
  parentId,
  label,
  submit,
  testId,
  onDone,
}: {
  proposalId: string;
  parentId?: string;
  label: string;
  submit: string;
  testId: string;
  onDone?: () => void;
}) {
  const trpc = useTRPC();
  const governanceError = useGovernanceError();
  const refresh = useRefreshThread(proposalId);
  const post = useMutation(trpc.governance.comments.post.mutationOptions());
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      await post.mutateAsync({ proposalId, body, ...(parentId ? { parentId } : {}) });
    } catch (err) {
      setError(governanceError(err).message);
      return;
    }
    setBody('');
    await refresh();
    onDone?.();
  }
  return (
    <form className="flex flex-col gap-2" onSubmit={onSubmit} data-testid={testId}>
      <Textarea
        aria-label={label}
        placeholder={label}
        rows={3}
        maxLength={10_000}
        required
        value={body}
        onChange={(e) => setBody(e.target.value)}
      />
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div>
        <Button type="submit" size="sm" disabled={post.isPending || !body.trim()}>
          {submit}
        </Button>
      </div>
    </form>
  );
}

function CommentItem({
  comment: c,
  proposalId,
  canWrite,
  moderator,
}: {
  comment: Comment;
  proposalId: string;
  canWrite: boolean;
  moderator: boolean;
}) {
  const t = useTranslations('governance.comments');
  const trpc = useTRPC();
  const governanceError = useGovernanceError();
  const refresh = useRefreshThread(proposalId);
  const mine = useMyWallets();
  const [mode, setMode] = useState<'reply' | 'edit' | 'hide' | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const edit = useMutation(trpc.governance.comments.edit.mutationOptions());
  const remove = useMutation(trpc.governance.comments.delete.mutationOptions());
  const hide = useMutation(trpc.governance.comments.hide.mutationOptions());
  const unhide = useMutation(trpc.governance.comments.unhide.mutationOptions());
  const own = mine.isMine(c.authorAddress) && !c.deleted;

  async function run(action: () => Promise<unknown>) {
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(governanceError(err).message);
      return;
    }
    setMode(null);
    setText('');
    await refresh();
  }

  return (
    <li className={c.depth > 0 ? 'border-l pl-4' : ''}>
      <article
        className="flex flex-col gap-1 rounded-md border p-3"
        data-testid="comment"
        data-comment-id={c.id}
      >
        <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
          <Address address={c.authorAddress} />
          <DateTime value={c.createdAt} />
          {c.edited && !c.deleted && <span>{t('edited')}</span>}
        </p>
        {c.deleted ? (
          <p className="text-sm italic text-muted-foreground">{t('deleted')}</p>
        ) : c.hidden ? (
          <div className="flex flex-col gap-1">
            <p className="text-sm italic text-muted-foreground">
              {t('hidden', { reason: c.hiddenReason ?? '' })}
            </p>
            {c.body !== null && <Markdown className="opacity-70">{c.body}</Markdown>}
          </div>
        ) : mode === 'edit' ? null : (
          c.body !== null && <Markdown>{c.body}</Markdown>
        )}
        {mode === 'edit' && (
          <form
            className="flex flex-col gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              void run(() => edit.mutateAsync({ commentId: c.id, body: text }));
            }}
          >
            <Textarea
              aria-label={t('editLabel')}
              rows={3}
              maxLength={10_000}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
            <div className="flex gap-2">
              <Button type="submit" size="sm" disabled={!text.trim()}>
                {t('save')}
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => setMode(null)}>
                {t('cancel')}
              </Button>
            </div>
          </form>
        )}
        {mode === 'hide' && (
          <form
            className="flex flex-wrap items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              void run(() => hide.mutateAsync({ commentId: c.id, reason: text }));
            }}
          >
            <Input
              aria-label={t('hideReason')}
              maxLength={1_000}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
            <Button type="submit" size="sm" disabled={!text.trim()}>
              {t('hide')}
            </Button>
          </form>
        )}
        <div className="flex flex-wrap gap-2">
          {canWrite && c.depth < MAX_DEPTH && (
            <Button size="sm" variant="ghost" onClick={() => setMode(mode === 'reply' ? null : 'reply')}>
              {t('reply')}
            </Button>
          )}
          {own && (
            <>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => {
                  setText(c.body ?? '');
                  setMode(mode === 'edit' ? null : 'edit');
                }}
              >
                {t('edit')}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setConfirmingDelete(true)}>
                {t('delete')}
              </Button>
              <ConfirmDialog
                open={confirmingDelete}
                onOpenChange={setConfirmingDelete}
                destructive
                title={t('deleteTitle')}
                description={t('deleteWhat')}
                confirmLabel={t('delete')}
                onConfirm={async () => {
                  await remove.mutateAsync({ commentId: c.id });
                  await refresh();
                }}
              />
            </>
          )}
          {moderator &&
            !c.deleted &&
            (c.hidden ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => void run(() => unhide.mutateAsync({ commentId: c.id }))}
              >
                {t('unhide')}
              </Button>
            ) : (
              <Button size="sm" variant="ghost" onClick={() => setMode(mode === 'hide' ? null : 'hide')}>
                {t('hide')}
              </Button>
            ))}
        </div>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        {mode === 'reply' && (
          <CommentForm
            proposalId={proposalId}
            parentId={c.id}
            label={t('replyLabel')}
            submit={t('postReply')}
            testId="reply-form"
            onDone={() => setMode(null)}
          />
        )}
      </article>
      {c.replies && c.replies.length > 0 && (
        <ol className="mt-2 flex flex-col gap-2">
          {c.replies.map((r) => (
            <CommentItem
              key={r.id}
              comment={r}
              proposalId={proposalId}
              canWrite={canWrite}
              moderator={moderator}
            />
          ))}
        </ol>
      )}
    </li>
  );
}
