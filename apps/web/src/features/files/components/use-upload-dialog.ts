import { useCallback, useEffect, useState } from 'react';
import type { UploadQueue, UploadSnapshot } from '../state/upload-queue';

/** Spec section 4: the dialog closes 2 seconds after every started upload has finished. */
export const UPLOAD_DIALOG_AUTO_CLOSE_MS = 2000;

/** Whether the upload dialog is open, and what opening and closing it does to the queue. */
export function useUploadDialog(queue: UploadQueue | null, uploads: UploadSnapshot) {
  const [open, setOpen] = useState(false);

  // With the dialog closed and nothing running, finished rows leave the queue; the started ones
  // that failed are listed on the page instead.
  useEffect(() => {
    if (!open && uploads.finished) queue?.clearFinished();
  }, [open, uploads.finished, queue]);

  // Spec section 4: the dialog closes by itself 2 seconds after every started upload has finished.
  useEffect(() => {
    if (!open || !uploads.finished) return;
    const timer = setTimeout(() => setOpen(false), UPLOAD_DIALOG_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [open, uploads.finished]);

  const close = useCallback(() => setOpen(false), []);
  /** Opens it afresh: the failures listed on the page are dismissed. */
  const openFresh = () => {
    queue?.dismissFailures();
    setOpen(true);
  };
  /** Opens it as it is (Show progress). */
  const reopen = () => setOpen(true);
  return { open, openFresh, reopen, close };
}
