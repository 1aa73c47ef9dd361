'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Monitor, Moon, Sun } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { useTheme } from 'next-themes';
import { toast } from 'sonner';
import { useTRPC } from '../../lib/trpc';
import { useMe } from '../../lib/use-auth';
import { useMounted } from '../../lib/use-mounted';
import { applyTheme, type Theme } from '../account/theme';
import { Button } from '../ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';

/**
 * Light / dark (/ system when signed out). Signed in, the choice is the stored preference, saved at once
 * like on the account page; if saving fails the previous theme comes back.
 */
export function ThemeMenu() {
  const t = useTranslations('common.theme');
  const ts = useTranslations('shell.theme');
  const mounted = useMounted();
  const { theme = 'system', resolvedTheme } = useTheme();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { signedIn, me } = useMe();
  const id = me.data?.user.id;
  const save = useMutation(trpc.users.updatePreferences.mutationOptions());
  const current = mounted ? theme : 'system';
  const options = signedIn ? (['light', 'dark'] as const) : (['light', 'dark', 'system'] as const);
  const shown = signedIn && current === 'system' ? (resolvedTheme ?? 'light') : current;

  function choose(next: string) {
    const before = shown;
    if (next === before) return;
    applyTheme(next === 'system' ? null : (next as Theme));
    if (!signedIn || !id) return;
    save.mutate(
      { id, theme: next as Theme },
      {
        onSuccess: (saved) => queryClient.setQueryData(trpc.users.preferences.queryKey({ id }), saved),
        onError: () => {
          applyTheme(before === 'system' ? null : (before as Theme));
          toast.error(ts('saveFailed'));
        },
      },
    );
  }

  const Icon = !mounted ? Monitor : resolvedTheme === 'dark' ? Moon : Sun;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" aria-label={ts('switch', { theme: t(shown as 'light') })}>
          <Icon aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="min-w-36">
        <DropdownMenuRadioGroup value={shown} onValueChange={choose}>
          {options.map((o) => (
            <DropdownMenuRadioItem key={o} value={o}>
              {t(o)}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
