import { useCallback, useEffect, useRef, useState } from 'react';

/** What the password dialog shows while a check waits for it. */
export interface FilePasswordDialogState {
  open: boolean;
  /** The key is being derived (KDF in the crypto Worker): the form is disabled. */
  loading: boolean;
  error: string | null;
  onSubmit: (password: string) => void;
  onCancel: () => void;
}

export interface FilePassword {
  /**
   * Opens the dialog and resolves with the authKey derived from the typed password, or null on
   * Cancel, on Stop (`signal`) or when the page goes away. Nothing is kept once it resolves.
   */
  ask: (signal: AbortSignal) => Promise<string | null>;
  dialog: FilePasswordDialogState;
}

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : 'The password could not be checked';

/**
 * The password the End to end suite's file check needs for a download URL (downloads ask for the
 * password, docs/api.md), asked the way the File Vault asks: `derive` turns it into the authKey on
 * this device (lib/session/derive-auth-key). Only the pending answer is held, never the password.
 */
export function useFilePassword(derive: (password: string) => Promise<string>): FilePassword {
  const [state, setState] = useState<{ loading: boolean; error: string | null } | null>(null);
  const pending = useRef<((authKey: string | null) => void) | null>(null);

  const finish = useCallback((authKey: string | null) => {
    const resolve = pending.current;
    pending.current = null;
    setState(null);
    resolve?.(authKey);
  }, []);

  const ask = useCallback(
    (signal: AbortSignal) =>
      new Promise<string | null>((resolve) => {
        if (signal.aborted) return resolve(null);
        // One question at a time: an earlier one still open is answered "no".
        pending.current?.(null);
        pending.current = resolve;
        signal.addEventListener('abort', () => pending.current === resolve && finish(null), { once: true });
        setState({ loading: false, error: null });
      }),
    [finish],
  );

  const onSubmit = useCallback(
    (password: string) => {
      const resolve = pending.current;
      if (!resolve) return;
      setState({ loading: true, error: null });
      derive(password).then(
        (authKey) => pending.current === resolve && finish(authKey),
        (error: unknown) =>
          pending.current === resolve && setState({ loading: false, error: messageOf(error) }),
      );
    },
    [derive, finish],
  );

  // Leaving the page answers an open question: the check goes on without the download.
  useEffect(() => () => finish(null), [finish]);

  return {
    ask,
    dialog: {
      open: state !== null,
      loading: state?.loading ?? false,
      error: state?.error ?? null,
      onSubmit,
      onCancel: () => finish(null),
    },
  };
}
