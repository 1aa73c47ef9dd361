'use client';
import { useTheme } from 'next-themes';
import { Toaster as Sonner } from 'sonner';

/**
 * Mounted once in app/providers.tsx. Show a toast with `toast('Address copied')`,
 * `toast.success(…)` or `toast.error(…)` from 'sonner'; toasts are announced politely.
 */
export function Toaster() {
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme === 'dark' ? 'dark' : 'light'}
      position="bottom-right"
      closeButton
      toastOptions={{ className: 'font-sans' }}
    />
  );
}
