import { useCallback, useEffect, useRef, useState } from 'react';
import { ProgressThrottle } from '../../../../lib/progress-throttle';
import type { FileTransferProgress, FileView } from '../../types';
import type { TransferNotice } from '../components/transfer-notices';
import { PROGRESS_CLEAR_MS } from '../utils/access-messages';

/** Stages whose percent runs: the others (completed, error) show at once and end the transfer. */
const RUNNING: ReadonlySet<FileTransferProgress['stage']> = new Set(['downloading', 'decrypting']);

/**
 * The transfers' status on the screen: each file's progress (Completed cleared after
 * PROGRESS_CLEAR_MS) and the notices of failed transfers, one per file. A running percent shows at
 * most every `progressIntervalMs` (PROGRESS_INTERVAL_MS by default; a new stage at once): a 100 MiB
 * download reported every whole percent of two stages, and each report drew the files page again.
 */
export function useTransferStatus(progressIntervalMs?: number) {
  const [progress, setProgress] = useState<ReadonlyMap<string, FileTransferProgress>>(() => new Map());
  const [notices, setNotices] = useState<TransferNotice[]>([]);
  const clearTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const noticeId = useRef(0);

  const showProgress = useCallback((fileId: string, next: FileTransferProgress | null) => {
    const timer = clearTimers.current.get(fileId);
    if (timer !== undefined) {
      clearTimeout(timer);
      clearTimers.current.delete(fileId);
    }
    setProgress((prev) => {
      if (!next && !prev.has(fileId)) return prev;
      const map = new Map(prev);
      if (next) map.set(fileId, next);
      else map.delete(fileId);
      return map;
    });
    if (next?.stage === 'completed') {
      clearTimers.current.set(
        fileId,
        setTimeout(() => {
          clearTimers.current.delete(fileId);
          setProgress((prev) => {
            if (prev.get(fileId)?.stage !== 'completed') return prev;
            const map = new Map(prev);
            map.delete(fileId);
            return map;
          });
        }, PROGRESS_CLEAR_MS),
      );
    }
  }, []);

  // Made at the first progress (not during render: it calls showProgress, which uses refs).
  const throttle = useRef<ProgressThrottle<FileTransferProgress> | null>(null);

  const setFileProgress = useCallback(
    (fileId: string, next: FileTransferProgress | null) => {
      throttle.current ??= new ProgressThrottle<FileTransferProgress>(
        showProgress,
        (shown, value) => shown.stage !== value.stage || !RUNNING.has(value.stage),
        progressIntervalMs,
      );
      if (next) throttle.current.push(fileId, next);
      else showProgress(fileId, null);
      if (!next || !RUNNING.has(next.stage)) throttle.current.forget(fileId);
    },
    [showProgress, progressIntervalMs],
  );

  const notify = useCallback((file: FileView, text: string) => {
    noticeId.current += 1;
    const notice: TransferNotice = {
      id: noticeId.current,
      fileId: file.dto.id,
      title: `"${file.name}"`,
      text,
    };
    setNotices((prev) => [...prev.filter((n) => n.fileId !== file.dto.id), notice]);
  }, []);

  const dismissNotice = useCallback((id: number) => {
    setNotices((prev) => {
      const notice = prev.find((n) => n.id === id);
      if (notice) {
        // The card's error goes with it (unless a new transfer of that file already started).
        setProgress((p) => {
          if (p.get(notice.fileId)?.stage !== 'error') return p;
          const map = new Map(p);
          map.delete(notice.fileId);
          return map;
        });
      }
      return prev.filter((n) => n.id !== id);
    });
  }, []);

  const clearNoticeFor = useCallback((fileId: string) => {
    setNotices((prev) =>
      prev.some((n) => n.fileId === fileId) ? prev.filter((n) => n.fileId !== fileId) : prev,
    );
  }, []);

  // Leaving the File Vault drops the pending clean-ups.
  useEffect(() => {
    const timers = clearTimers.current;
    const throttled = throttle;
    return () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      throttled.current?.dispose();
    };
  }, []);

  return { progress, notices, setFileProgress, notify, dismissNotice, clearNoticeFor };
}

export type TransferStatus = ReturnType<typeof useTransferStatus>;
