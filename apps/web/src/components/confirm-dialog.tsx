import { useRef, type ReactNode } from 'react';
import { Banner } from './banner';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  /** The question, e.g. the spec's 'Are you sure? This will permanently delete the note and cannot be undone.' */
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'danger' | 'primary';
  busy?: boolean;
  /** An error from the confirmed action, shown in the dialog. */
  error?: ReactNode;
  /** What the action needs besides a yes (a reason field), under the question. */
  children?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A confirmation as an alert dialog (the design system's Dialog: focus trap, Escape, focus
 * returned). Focus starts on Cancel, so a stray Enter never destroys anything.
 */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'danger',
  busy = false,
  error,
  children,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={open}
      role="alertdialog"
      size="sm"
      title={title}
      description={message}
      initialFocusRef={cancelRef}
      onClose={busy ? undefined : onCancel}
      closeOnBackdrop={!busy}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={tone} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {error ? (
        <Banner tone="danger" role="alert">
          {error}
        </Banner>
      ) : null}
    </Dialog>
  );
}
