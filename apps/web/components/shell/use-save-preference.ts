'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';

/** a choice, or back to the device's setting ("System") */
type Change =
  | { theme: 'light' | 'dark' }
  | { language: string }
  | { followSystem: { theme?: true; language?: true } };

/**
 * The header menus' save: signed in, a change becomes the stored preference (the account page's cache is
 * updated with the answer); signed out there is nothing to store, and `save` returns false.
 */
export function useSavePreference() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { signedIn, me } = useMe();
  const id = me.data?.user.id;
  const mutation = useMutation(trpc.users.updatePreferences.mutationOptions());
  const prefs = useQuery({
    ...trpc.users.preferences.queryOptions({ id: id ?? '' }),
    enabled: signedIn && id !== undefined,
  });
  return {
    signedIn,
    /** the stored preferences once read (signed in) */
    stored: prefs.data,
    save(change: Change, on: { onSuccess?: () => void; onError: () => void }) {
      if (!signedIn || !id) return false;
      mutation.mutate(
        { id, ...change },
        {
          onSuccess: (saved) => {
            queryClient.setQueryData(trpc.users.preferences.queryKey({ id }), saved);
            on.onSuccess?.();
          },
          onError: on.onError,
        },
      );
      return true;
    },
  };
}
