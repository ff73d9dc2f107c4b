import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FolderIcon, LockIcon } from '../../../components/icons';
import { LoadingPanel } from '../../../components/loading-panel';
import { PageHeader } from '../../../components/page-header';
import { RetryBanner } from '../../../components/retry-banner';
import { SearchField } from '../../../components/search-field';
import { isApiError, messageOf } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { useConfirmAction } from '../../../lib/use-confirm-action';
import { useQueryCache } from '../../../lib/query';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { FileAccessProvider, useFileAccess } from '../access';
import { deleteFile } from '../api/delete-file';
import { filesChanged } from '../api/invalidate';
import { useFilesSnapshot, useFilesStore, useUploadQueue, useUploadSnapshot } from '../state/use-files';
import type { FileView } from '../types';
import { FILE_MESSAGES } from '../utils/file-rules';
import { collectFileTags, filterFiles, hasActiveFilters } from '../utils/filter-files';
import { displayName } from './file-card';
import { SearchIcon, UploadIcon } from './file-icons';
import { FilePicker } from './file-picker';
import { FilesList } from './files-list';
import { UploadDialog } from './upload-dialog';
import { UploadNotices } from './upload-notices';
import { useScanPolling } from './use-scan-polling';
import { useUploadDialog } from './use-upload-dialog';
import '../../../styles/vault-pages.css';
import './files.css';

export { UPLOAD_DIALOG_AUTO_CLOSE_MS } from './use-upload-dialog';
export { SCAN_POLL_LIMIT, SCAN_POLL_MS } from './use-scan-polling';

/** /files: the File Vault, with file access (download, preview, the password prompt) around it. */
export function FilesRoute() {
  return (
    <FileAccessProvider>
      <FilesPage />
    </FileAccessProvider>
  );
}

/**
 * The Encrypted File Vault (spec section 2): Browse Files and Upload Files, the upload dialog,
 * 'File Vault' with the count and 'End-to-end encrypted', search ('Search files...') on the
 * decrypted names, the tag filter ('All tags'), the card grid, delete with its confirmation,
 * and the empty, loading and error states.
 */
export function FilesPage() {
  useDocumentTitle('File Vault');
  const api = useApiClient();
  const cache = useQueryCache();
  const store = useFilesStore();
  const snapshot = useFilesSnapshot(store);
  const queue = useUploadQueue();
  const uploads = useUploadSnapshot(queue);
  const access = useFileAccess();
  const dialog = useUploadDialog(queue, uploads);
  const deletion = useConfirmAction<FileView>();
  const [searchInput, setSearchInput] = useState(snapshot.searchQuery);
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    void store?.load();
  }, [store]);
  useScanPolling(store, snapshot.items);

  const deferredQuery = useDeferredValue(snapshot.searchQuery);
  const filters = useMemo(
    () => ({ searchQuery: deferredQuery, tag: snapshot.selectedTag }),
    [deferredQuery, snapshot.selectedTag],
  );
  const tags = useMemo(() => collectFileTags(snapshot.items), [snapshot.items]);
  const shown = useMemo(() => filterFiles(snapshot.items, filters), [snapshot.items, filters]);

  const onSearch = (value: string) => {
    setSearchInput(value);
    store?.setSearchQuery(value);
  };
  const clearFilters = () => {
    onSearch('');
    store?.setTag(null);
  };

  const onNeedThumbnail = useCallback((id: string) => store?.requestThumbnail(id), [store]);

  const moveToTrash = async (file: FileView) => {
    try {
      await deleteFile(api, file.dto.id);
    } catch (error) {
      // Already gone (another tab): the goal is reached.
      if (!isApiError(error, 404)) throw error;
    }
    store?.remove(file.dto.id);
    filesChanged(cache);
    setStatus(`Moved "${displayName(file)}" to the trash.`);
  };
  const deleteFailed = (error: unknown) => {
    const reason = messageOf(error, '');
    return reason ? `${FILE_MESSAGES.deleteFailed}: ${reason}` : FILE_MESSAGES.deleteFailed;
  };

  const loading = snapshot.status === 'loading' || snapshot.status === 'idle';

  return (
    <div className="page files-page">
      <PageHeader
        title="Encrypted File Vault"
        description={
          <>
            <LockIcon width={14} height={14} /> Files are encrypted on this device before they are uploaded.
          </>
        }
        actions={
          <>
            <FilePicker
              disabled={!queue}
              onFiles={(files) => {
                queue?.add(files);
                dialog.openFresh();
              }}
            >
              <FolderIcon width={18} height={18} />
              <span className="btn__label">Browse Files</span>
            </FilePicker>
            <Button icon={<UploadIcon width={18} height={18} />} onClick={dialog.openFresh} disabled={!queue}>
              Upload Files
            </Button>
          </>
        }
      />

      <div className="files-toolbar">
        <SearchField
          id="files-search-input"
          className="files-search"
          label="Search files"
          placeholder="Search files..."
          icon={<SearchIcon className="vault-search__icon" width={18} height={18} />}
          value={searchInput}
          onChange={onSearch}
        />
        <label className="files-tag-filter">
          <span className="visually-hidden">Filter by tag</span>
          <select
            className="files-tag-filter__select"
            value={snapshot.selectedTag ?? ''}
            onChange={(e) => store?.setTag(e.target.value === '' ? null : e.target.value)}
          >
            <option value="">All tags</option>
            {tags.map((tag) => (
              <option key={tag} value={tag}>
                {tag}
              </option>
            ))}
          </select>
        </label>
      </div>

      {snapshot.error ? (
        <RetryBanner onRetry={() => void store?.retry()}>{snapshot.error}</RetryBanner>
      ) : null}

      <UploadNotices
        queue={queue}
        uploads={uploads}
        dialogOpen={dialog.open}
        onShowProgress={dialog.reopen}
      />

      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>

      {loading ? (
        <LoadingPanel text="Loading your files..." />
      ) : snapshot.status === 'error' ? null : (
        <FilesList
          total={snapshot.items.length}
          shown={shown}
          filtersActive={hasActiveFilters(filters)}
          decryptingCount={snapshot.decryptingCount}
          thumbnails={snapshot.thumbnails}
          progress={access.progress}
          onPreview={access.requestPreview}
          onDownload={access.requestDownload}
          onDelete={deletion.ask}
          onNeedThumbnail={onNeedThumbnail}
          onClearFilters={clearFilters}
          onUpload={dialog.openFresh}
          uploadDisabled={!queue}
        />
      )}

      <UploadDialog open={dialog.open} onClose={dialog.close} queue={queue} uploads={uploads} />

      <ConfirmDialog
        open={deletion.open}
        title="Move to trash"
        message={FILE_MESSAGES.confirmDelete}
        confirmLabel="Move to trash"
        busy={deletion.busy}
        error={deletion.error}
        onCancel={deletion.cancel}
        onConfirm={() => void deletion.confirm(moveToTrash, deleteFailed)}
      />
    </div>
  );
}
