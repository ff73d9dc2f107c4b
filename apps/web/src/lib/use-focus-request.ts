import { useEffect, useState, type RefObject } from 'react';

/**
 * Focus for a field that is disabled while busy: a request is counted and served after the
 * re-render has enabled the field again (focusing it straight away would do nothing).
 * `initially` asks for focus on mount.
 */
export function useFocusRequest(ref: RefObject<HTMLElement | null>, initially = false): () => void {
  const [requests, setRequests] = useState(initially ? 1 : 0);
  useEffect(() => {
    if (requests > 0) ref.current?.focus();
  }, [requests, ref]);
  return () => setRequests((n) => n + 1);
}
