'use client';
import { toast } from 'sonner';
import { readable } from '../../lib/files/readable';
import { useErrorText } from '../../lib/i18n/error-text';

/** A failed button action (enable, test, redeliver) as an error toast in the page's language. */
export function useActionError() {
  const say = useErrorText();
  return (err: unknown) => {
    toast.error(say.error(readable(err)).message);
  };
}
