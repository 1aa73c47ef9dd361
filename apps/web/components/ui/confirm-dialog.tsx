'use client';
import { Loader2 } from 'lucide-react';
import { useTranslations } from 'next-intl';
import { AlertDialog } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import { toDisplayError } from '../../lib/errors';
import { Alert, AlertDescription } from './alert';
import { Button } from './button';

interface ConfirmOptions {
  title: ReactNode;
  /** what will happen, in words ("Their votes on 2 active proposals are removed.") */
  description: ReactNode;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  /** a red confirm button, for actions that take something away */
  destructive?: boolean;
}

interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /**
   * Runs when the person confirms. While its promise is pending the buttons wait; if it rejects, the
   * error stays in the dialog (in words) so they can try again or cancel; when it resolves the dialog closes.
   */
  onConfirm: () => unknown | Promise<unknown>;
  children?: ReactNode;
}

/**
 * A confirmation step before a destructive or irreversible action (Radix AlertDialog: focus starts on
 * Cancel, Escape cancels). Controlled: render it with `open` from your state.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  onConfirm,
  title,
  description,
  confirmLabel,
  cancelLabel,
  destructive,
  children,
}: ConfirmDialogProps) {
  const t = useTranslations('common');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch (err) {
      setError(toDisplayError(err).message);
    } finally {
      setPending(false);
    }
  }

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        if (!next) setError(null);
        onOpenChange(next);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-in data-[state=open]:fade-in-0" />
        <AlertDialog.Content
          data-slot="confirm-dialog"
          className="fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-xl border bg-popover p-5 text-popover-foreground shadow-lg outline-none data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95"
        >
          <AlertDialog.Title className="m-0 text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="grid gap-2 text-sm text-muted-foreground">{description}</div>
          </AlertDialog.Description>
          {children}
          {error && (
            <Alert variant="destructive" role="alert">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="outline" disabled={pending}>
                {cancelLabel ?? t('cancel')}
              </Button>
            </AlertDialog.Cancel>
            <Button
              variant={destructive ? 'destructive' : 'default'}
              disabled={pending}
              aria-busy={pending || undefined}
              onClick={() => void confirm()}
            >
              {pending && <Loader2 className="animate-spin" aria-hidden />}
              {confirmLabel ?? t('confirm')}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
