import { useState } from 'react';
import { failureText } from '../utils/settings-validation';

/**
 * A settings action's busy flag and error text. `run` clears the error, marks the action busy
 * for the length of `work` and shows a failure as failureText(e, failMessage).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (failMessage: string, work: () => Promise<void>) => {
    setError(null);
    setBusy(true);
    try {
      await work();
    } catch (e) {
      setError(failureText(e, failMessage));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}
