'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { type FormEvent, useEffect, useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import type { DisplayError } from '../../lib/errors';
import { readable } from '../../lib/files/readable';
import { useUploadLimits } from '../../lib/files/use-upload-limits';
import { type UploadProgress, xhrUpload } from '../../lib/files/xhr-upload';
import { useSessionToken } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { useFileWords } from '../files/use-file-words';
import { Notice } from '../ui/alert';
import { Button } from '../ui/button';
import { FieldItem } from '../ui/field';
import { FormError } from '../ui/form';
import { AvatarImage } from './avatar-image';

/** until the server's limits are read: its defaults (MAX_AVATAR_SIZE, ALLOWED_IMAGE_TYPES) */
const DEFAULTS = { maxAvatarSize: 5_242_880, avatarTypes: ['image/png', 'image/jpeg', 'image/gif'] };

/** Choose a picture, see it, upload it (PUT /users/{id}/avatar, field `avatar`). */
export function AvatarUpload({
  user,
}: {
  user: { id: string; firstName: string; lastName: string; updatedAt: string; avatarUrl: string | null };
}) {
  const t = useTranslations('account.avatar');
  const words = useFileWords();
  const limits = useUploadLimits().data ?? DEFAULTS;
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<DisplayError | null>(null);
  const [saved, setSaved] = useState(false);
  const name = `${user.firstName} ${user.lastName}`;

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  function choose(f: File | undefined) {
    setError(null);
    setSaved(false);
    setFile(f ?? null);
    setPreview(f ? URL.createObjectURL(f) : null);
    // the server decides from the bytes; these hints only save a round trip
    if (f && !limits.avatarTypes.includes(f.type))
      setError({ message: t('chooseType', { types: words.list(limits.avatarTypes) }), fields: {} });
    else if (f && f.size > limits.maxAvatarSize)
      setError({
        message: t('tooLarge', { size: words.size(f.size), max: words.size(limits.maxAvatarSize) }),
        fields: {},
      });
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!file) return setError({ message: t('chooseFirst'), fields: {} });
    setError(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      await xhrUpload({
        url: `${apiUrl}/users/${encodeURIComponent(user.id)}/avatar`,
        method: 'PUT',
        field: 'avatar',
        file,
        token,
        onProgress: setProgress,
      });
      setSaved(true);
      setFile(null);
      setPreview(null);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.users.get.queryKey({ id: user.id }) }),
        queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }),
        queryClient.invalidateQueries({ queryKey: ['account', 'avatar', user.id] }),
      ]);
    } catch (err) {
      const shown = readable(err);
      setError({ ...shown, message: words.failure(err, undefined, file.size) });
    } finally {
      setProgress(null);
    }
  }

  return (
    <section aria-labelledby="avatar-heading" className="stack">
      <h2 id="avatar-heading" className="m-0 text-xl font-semibold">
        {t('title')}
      </h2>
      <div className="flex flex-wrap items-start gap-4">
        {preview ? (
          <img
            className="size-24 shrink-0 rounded-full border bg-card object-cover"
            src={preview}
            alt={t('previewAlt')}
            width={96}
            height={96}
            data-testid="avatar-preview"
          />
        ) : (
          <AvatarImage userId={user.id} version={user.updatedAt} name={name} hasPicture={!!user.avatarUrl} />
        )}
        <form className="stack" onSubmit={submit}>
          <FieldItem
            label={t('choose', {
              types: words.list(limits.avatarTypes),
              max: words.size(limits.maxAvatarSize),
            })}
            name="avatar"
          >
            {(control) => (
              <input
                {...control}
                type="file"
                accept={limits.avatarTypes.join(',')}
                onChange={(e) => choose(e.target.files?.[0])}
              />
            )}
          </FieldItem>
          <Button type="submit" className="justify-self-start" disabled={!file || progress !== null}>
            {progress ? t('uploading') : t('upload')}
          </Button>
          {progress && (
            <progress max={progress.total || 1} value={progress.loaded} aria-label={t('progress')} />
          )}
        </form>
      </div>
      <FormError error={error} />
      {saved && <Notice testId="avatar-saved">{t('saved')}</Notice>}
    </section>
  );
}
