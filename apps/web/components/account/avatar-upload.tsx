'use client';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useApiUrl } from '../../lib/api-url';
import type { DisplayError } from '../../lib/errors';
import { formatBytes } from '../../lib/files/format';
import { readable } from '../../lib/files/readable';
import { type UploadProgress, xhrUpload } from '../../lib/files/xhr-upload';
import { useSessionToken } from '../../lib/session';
import { useTRPC } from '../../lib/trpc';
import { ErrorAlert, Notice } from '../alert';
import { AvatarImage } from './avatar-image';

const MAX_AVATAR = 5_242_880;
const TYPES = ['image/png', 'image/jpeg', 'image/gif'];

/** Choose a picture, see it, upload it (PUT /users/{id}/avatar, field `avatar`). */
export function AvatarUpload({
  user,
}: {
  user: { id: string; firstName: string; lastName: string; updatedAt: string; avatarUrl: string | null };
}) {
  const apiUrl = useApiUrl();
  const token = useSessionToken();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const inputId = useId();
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
    if (f && !TYPES.includes(f.type)) setError({ message: 'Choose a PNG, JPEG or GIF picture.', fields: {} });
    else if (f && f.size > MAX_AVATAR)
      setError({ message: `The picture is ${formatBytes(f.size)}; the limit is 5.2 MB.`, fields: {} });
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (!file) return setError({ message: 'Choose a picture first.', fields: {} });
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
      setError(readable(err));
    } finally {
      setProgress(null);
    }
  }

  return (
    <section aria-labelledby="avatar-heading" className="stack">
      <h2 id="avatar-heading">Picture</h2>
      <div className="avatar-row">
        {preview ? (
          <img
            className="avatar"
            src={preview}
            alt="Your new avatar, not saved yet"
            width={96}
            height={96}
            data-testid="avatar-preview"
          />
        ) : (
          <AvatarImage userId={user.id} version={user.updatedAt} name={name} hasPicture={!!user.avatarUrl} />
        )}
        <form className="stack" onSubmit={submit}>
          <div className="field">
            <label htmlFor={inputId}>Choose a picture (PNG, JPEG or GIF, up to 5 MB)</label>
            <input
              id={inputId}
              type="file"
              accept={TYPES.join(',')}
              onChange={(e) => choose(e.target.files?.[0])}
            />
          </div>
          <button type="submit" disabled={!file || progress !== null}>
            {progress ? 'Uploading…' : 'Upload picture'}
          </button>
          {progress && (
            <progress
              max={progress.total || 1}
              value={progress.loaded}
              aria-label="Picture upload progress"
            />
          )}
        </form>
      </div>
      <ErrorAlert error={error} />
      {saved && <Notice testId="avatar-saved">Your picture was saved.</Notice>}
    </section>
  );
}
