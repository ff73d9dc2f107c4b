import { useCallback, useState } from 'react';

/**
 * A confirmation dialog's state for an action on one item (Move to trash): which item is asked
 * about, and while the action runs, busy; when it fails, the error shown in the dialog. The dialog
 * closes when the action succeeds.
 */
export function useConfirmAction<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  const ask = useCallback((item: T) => {
    setState({ busy: false, error: null });
    setTarget(item);
  }, []);
  const cancel = useCallback(() => setTarget(null), []);

  /** Runs `action` on the item asked about; a failure becomes the dialog's error (`errorOf`). */
  const confirm = async (action: (item: T) => Promise<void>, errorOf: (error: unknown) => string) => {
    const item = target;
    if (item === null) return;
    setState({ busy: true, error: null });
    try {
      await action(item);
      setTarget(null);
    } catch (error) {
      setState({ busy: false, error: errorOf(error) });
    }
  };

  return { target, open: target !== null, busy: state.busy, error: state.error, ask, cancel, confirm };
}
