import { useApiClient } from '../../../lib/api-context';
import { useQueryCache } from '../../../lib/query';
import { useSessionStore } from '../../../lib/session/session-context';
import type { TrashSection } from '../../../lib/trash-section';
import { emptyFilesTrash } from '../api/empty-files-trash';
import { filesChanged } from '../api/invalidate';
import { purgeFile } from '../api/purge-file';
import { restoreFile } from '../api/restore-file';
import { existingFilesStore } from '../state/files-registry';
import { useDeletedFiles } from '../state/use-deleted-files';
import { FILE_MESSAGES } from '../utils/file-rules';
import { trashFileCard } from './trash-file-card';

/** The trash's Deleted Files: the files in the trash, names decrypted, with Restore and permanent delete. */
export function useFilesTrash(): TrashSection {
  const api = useApiClient();
  const cache = useQueryCache();
  const session = useSessionStore();
  const deleted = useDeletedFiles();
  return {
    kind: 'file',
    title: 'Deleted Files',
    headingId: 'deleted-files-heading',
    entries: deleted.data?.map((file) => ({
      id: file.dto.id,
      card: trashFileCard(file),
      restore: async () => {
        const restored = await restoreFile(api, file.dto.id);
        const name = file.status === 'ready' ? file.name : FILE_MESSAGES.encryptedFile;
        return {
          message: `Restored "${name}" to your File Vault.`,
          after: async () => {
            filesChanged(cache);
            await existingFilesStore(session)?.insert(restored);
          },
        };
      },
      purge: () => purgeFile(api, file.dto.id),
    })),
    status: deleted.status,
    error: deleted.error,
    refetch: deleted.refetch,
    empty: () => emptyFilesTrash(api),
    changed: () => filesChanged(cache),
  };
}
