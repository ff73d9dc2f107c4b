import type { NoteDto } from '@vault/contracts';
import { useCallback } from 'react';
import { messageOf } from '../../../../lib/api-client';
import { useApiClient } from '../../../../lib/api-context';
import { downloadFile } from '../../../../lib/download-file';
import { useQueryCache } from '../../../../lib/query';
import { useSession } from '../../../../lib/session/session-context';
import { cryptoErrorCode } from '../../../../workers/crypto-service';
import { useNotesCrypto } from '../../../../workers/notes-crypto-context';
import type { NotePlain } from '../../../../workers/notes-messages';
import { createNotesBatch } from '../../api/create-notes-batch';
import { getDeletedNotes } from '../../api/get-deleted-notes';
import { notesChanged } from '../../api/invalidate';
import { useNotesStore } from '../../state/use-notes';
import {
  BACKUP_MESSAGES,
  BackupFormatError,
  backupFileName,
  buildBackup,
  isEncryptedBackup,
  parseBackup,
  parseJson,
} from '../utils/backup-format';
import { planImport, runImport, type ImportProgress } from '../utils/import-notes';

export interface ExportRequest {
  /** Seal the file under this password (Argon2id + AES-256-GCM); plain JSON when absent. */
  password?: string;
  now?: Date;
  onStage?: (stage: 'decrypting' | 'sealing') => void;
}

export interface ExportResult {
  fileName: string;
  body: string;
  total: number;
  /** Notes that could not be decrypted, so are not in the file. */
  skipped: number;
}

/** Builds the backup file from every note of the vault (waiting for the rest to be decrypted first). */
export function useExportNotes(): (request: ExportRequest) => Promise<ExportResult> {
  const store = useNotesStore();
  const crypto = useNotesCrypto();
  const { user } = useSession();
  return useCallback(
    async ({ password, now = new Date(), onStage }: ExportRequest) => {
      if (!store || !user) throw new Error('The vault is locked');
      onStage?.('decrypting');
      await store.whenComplete();
      const snapshot = store.getSnapshot();
      const notes = snapshot.items.flatMap((i) => (i.kind === 'decrypted' ? [i.note] : []));
      const json = JSON.stringify(buildBackup(notes, { email: user.email, id: user.id }, now), null, 2);
      let body = json;
      if (password !== undefined) {
        onStage?.('sealing');
        body = JSON.stringify(await crypto.sealBackup(password, json), null, 2);
      }
      return {
        fileName: backupFileName(now, password !== undefined),
        body,
        total: notes.length,
        skipped: snapshot.failedCount,
      };
    },
    [crypto, store, user],
  );
}

/** Hands the export to the browser as a download. */
export function downloadText(fileName: string, body: string, type = 'application/json'): void {
  downloadFile(fileName, body, { type });
}

export type ImportResult =
  | { kind: 'needs-password' }
  | { kind: 'nothing'; message: string }
  | { kind: 'done'; message: string; created: number; skipped: number }
  | { kind: 'partial'; message: string; created: number; failed: number };

export interface ImportRequest {
  text: string;
  password?: string;
  onProgress?: (progress: ImportProgress) => void;
  onStage?: (stage: 'opening' | 'checking' | 'importing') => void;
  /** The server asked to slow down: the import goes on after this many seconds. */
  onWait?: (seconds: number) => void;
}

export class ImportError extends Error {
  constructor(
    reason: string,
    readonly wrongPassword = false,
  ) {
    super(BACKUP_MESSAGES.importFailed(reason));
    this.name = 'ImportError';
  }
}

/**
 * Import (spec section 5): a backup file, plain or password-encrypted, checked ('Invalid backup
 * file format'), notes whose id already exists skipped, every other note sealed with new keys on
 * this device and created through the API with progress.
 */
export function useImportNotes(): (request: ImportRequest) => Promise<ImportResult> {
  const store = useNotesStore();
  const crypto = useNotesCrypto();
  const api = useApiClient();
  const cache = useQueryCache();
  const { user, vaultKey } = useSession();
  return useCallback(
    async ({ text, password, onProgress, onStage, onWait }: ImportRequest): Promise<ImportResult> => {
      if (!store || !user || !vaultKey) throw new ImportError('The vault is locked');
      let data: unknown;
      try {
        data = parseJson(text);
        if (isEncryptedBackup(data)) {
          if (password === undefined) return { kind: 'needs-password' };
          onStage?.('opening');
          let inner: string;
          try {
            inner = await crypto.openBackup(password, data);
          } catch (error) {
            if (cryptoErrorCode(error) === 'DECRYPT_FAILED') {
              throw new ImportError(BACKUP_MESSAGES.wrongPassword, true);
            }
            throw new BackupFormatError();
          }
          data = parseJson(inner);
        }
      } catch (error) {
        if (error instanceof ImportError) throw error;
        throw new ImportError(
          error instanceof BackupFormatError ? error.message : BACKUP_MESSAGES.invalidFormat,
        );
      }
      let candidates;
      try {
        candidates = parseBackup(data);
      } catch (error) {
        throw new ImportError(error instanceof Error ? error.message : BACKUP_MESSAGES.invalidFormat);
      }
      if (candidates.length === 0) return { kind: 'nothing', message: 'The backup file contains no notes.' };

      onStage?.('checking');
      let existing: Set<string>;
      try {
        await store.whenComplete();
        const trash = await getDeletedNotes(api);
        existing = new Set([...store.getSnapshot().items.map((i) => i.id), ...trash.map((n) => n.id)]);
      } catch (error) {
        throw new ImportError(
          messageOf(error, error instanceof Error ? error.message : 'Could not read your vault'),
        );
      }
      const plan = await planImport(candidates, existing, user.id);
      if (plan.create.length === 0) return { kind: 'nothing', message: BACKUP_MESSAGES.allExist };

      onStage?.('importing');
      let buffer: Array<{ sealed: NoteDto; plain: NotePlain }> = [];
      const flush = () => {
        store.upsertMany(buffer);
        buffer = [];
      };
      const outcome = await runImport(plan.create, {
        encrypt: (id, plain) => crypto.encrypt(vaultKey, id, plain),
        createBatch: (sealed) => createNotesBatch(api, sealed),
        userId: user.id,
        onProgress,
        ...(onWait ? { onWait } : {}),
        onCreated: (sealed, plain) => {
          buffer.push({ sealed, plain });
          if (buffer.length >= 50) flush();
        },
      });
      flush();
      notesChanged(cache, { trash: false });
      if (outcome.failed > 0) {
        const reason = `${outcome.failed} of ${plan.create.length} notes could not be saved (${outcome.firstError ?? 'unknown error'}).`;
        if (outcome.created === 0) throw new ImportError(reason);
        return {
          kind: 'partial',
          message: `${BACKUP_MESSAGES.importFailed(reason)} ${BACKUP_MESSAGES.imported(outcome.created)}`,
          created: outcome.created,
          failed: outcome.failed,
        };
      }
      return {
        kind: 'done',
        message: BACKUP_MESSAGES.imported(outcome.created),
        created: outcome.created,
        skipped: plan.skipped,
      };
    },
    [api, cache, crypto, store, user, vaultKey],
  );
}
