import { useEffect } from 'react';
import type { FilesStore } from '../state/files-store';
import type { FileView } from '../types';

/** While some file's scan is pending, the list is fetched again this often (at most SCAN_POLL_LIMIT times). */
export const SCAN_POLL_MS = 5000;
export const SCAN_POLL_LIMIT = 24;

/** Scan results arrive after the upload: while one is pending, look again now and then. */
export function useScanPolling(store: FilesStore | null, items: readonly FileView[]) {
  const scanPending = items.some((f) => !f.dto.virusScanned || f.dto.virusScanResult === 'pending');
  useEffect(() => {
    if (!store || !scanPending) return;
    let polls = 0;
    const timer = setInterval(() => {
      polls += 1;
      if (polls > SCAN_POLL_LIMIT) {
        clearInterval(timer);
        return;
      }
      void store.refresh();
    }, SCAN_POLL_MS);
    return () => clearInterval(timer);
  }, [store, scanPending]);
}
