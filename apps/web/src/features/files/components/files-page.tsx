import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { FolderIcon, LockIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Spinner } from '../../../components/spinner';
import { isApiError, messageOf } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { useQueryCache } from '../../../lib/query';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { FileAccessProvider, useFileAccess } from '../access';
import { deleteFile } from '../api/delete-file';
import { filesChanged } from '../api/invalidate';
import { useFilesSnapshot, useFilesStore, useUploadQueue, useUploadSnapshot } from '../state/use-files';
import type { FileView } from '../types';
import { ACCEPT_ATTRIBUTE, FILE_MESSAGES } from '../utils/file-rules';
import { collectFileTags, filterFiles, hasActiveFilters } from '../utils/filter-files';
import { FileCard, displayName } from './file-card';
import { SearchIcon, UploadIcon } from './file-icons';
import { UploadDialog } from './upload-dialog';
import '../../../styles/vault-pages.css';
import './files.css';

/** Spec section 4: the dialog closes 2 seconds after every started upload has finished. */
export const UPLOAD_DIALOG_AUTO_CLOSE_MS = 2000;
/** While some file's scan is pending, the list is fetched again this often (at most SCAN_POLL_LIMIT times). */
export const SCAN_POLL_MS = 5000;
export const SCAN_POLL_LIMIT = 24;

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
  const [dialogOpen, setDialogOpen] = useState(false);
  const [searchInput, setSearchInput] = useState(snapshot.searchQuery);
  const [pendingDelete, setPendingDelete] = useState<FileView | null>(null);
  const [deleteState, setDeleteState] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    void store?.load();
  }, [store]);

  // Scan results arrive after the upload: while one is pending, look again now and then.
  const scanPending = snapshot.items.some((f) => !f.dto.virusScanned || f.dto.virusScanResult === 'pending');
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

  // With the dialog closed and nothing running, finished rows leave the queue; the started ones
  // that failed are listed on the page instead.
  useEffect(() => {
    if (!dialogOpen && uploads.finished) queue?.clearFinished();
  }, [dialogOpen, uploads.finished, queue]);

  // Spec section 4: the dialog closes by itself 2 seconds after every started upload has finished.
  useEffect(() => {
    if (!dialogOpen || !uploads.finished) return;
    const timer = setTimeout(() => setDialogOpen(false), UPLOAD_DIALOG_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [dialogOpen, uploads.finished]);

  const closeDialog = useCallback(() => setDialogOpen(false), []);
  const openDialog = () => {
    queue?.dismissFailures();
    setDialogOpen(true);
  };

  const deferredQuery = useDeferredValue(snapshot.searchQuery);
  const filters = useMemo(
    () => ({ searchQuery: deferredQuery, tag: snapshot.selectedTag }),
    [deferredQuery, snapshot.selectedTag],
  );
  const filtersActive = hasActiveFilters(filters);
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
  const onDelete = useCallback((file: FileView) => {
    setDeleteState({ busy: false, error: null });
    setPendingDelete(file);
  }, []);
  const { requestPreview, requestDownload } = access;

  const confirmDelete = async () => {
    const file = pendingDelete;
    if (!file) return;
    setDeleteState({ busy: true, error: null });
    try {
      try {
        await deleteFile(api, file.dto.id);
      } catch (error) {
        // Already gone (another tab): the goal is reached.
        if (!isApiError(error, 404)) throw error;
      }
      store?.remove(file.dto.id);
      filesChanged(cache);
      setPendingDelete(null);
      setStatus(`Moved "${displayName(file)}" to the trash.`);
    } catch (error) {
      const reason = messageOf(error, '');
      setDeleteState({
        busy: false,
        error: reason ? `${FILE_MESSAGES.deleteFailed}: ${reason}` : FILE_MESSAGES.deleteFailed,
      });
    }
  };

  const activeUploads = uploads.items.filter(
    (i) => i.started && i.status !== 'completed' && i.status !== 'error',
  );
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
            <label className="btn btn--secondary btn--md file-picker">
              <input
                type="file"
                className="visually-hidden"
                multiple
                accept={ACCEPT_ATTRIBUTE}
                disabled={!queue}
                onChange={(e) => {
                  const files = e.target.files ? Array.from(e.target.files) : [];
                  e.target.value = '';
                  if (files.length === 0) return;
                  queue?.add(files);
                  openDialog();
                }}
              />
              <FolderIcon width={18} height={18} />
              <span className="btn__label">Browse Files</span>
            </label>
            <Button icon={<UploadIcon width={18} height={18} />} onClick={openDialog} disabled={!queue}>
              Upload Files
            </Button>
          </>
        }
      />

      <div className="files-toolbar">
        <div className="vault-search files-search" role="search">
          <label htmlFor="files-search-input" className="visually-hidden">
            Search files
          </label>
          <SearchIcon className="vault-search__icon" width={18} height={18} />
          <input
            id="files-search-input"
            type="search"
            className="vault-search__input"
            placeholder="Search files..."
            value={searchInput}
            autoComplete="off"
            onChange={(e) => onSearch(e.target.value)}
          />
        </div>
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
        <Banner
          tone="danger"
          action={
            <Button variant="secondary" size="sm" onClick={() => void store?.retry()}>
              Retry
            </Button>
          }
        >
          {snapshot.error}
        </Banner>
      ) : null}

      {uploads.failures.length > 0 ? (
        <Banner
          tone="danger"
          title={
            uploads.failures.length === 1
              ? '1 file was not uploaded'
              : `${uploads.failures.length} files were not uploaded`
          }
          action={
            <Button variant="secondary" size="sm" onClick={() => queue?.dismissFailures()}>
              Dismiss
            </Button>
          }
        >
          <ul className="files-failures">
            {uploads.failures.map((f) => (
              <li key={f.key}>
                <strong>{f.name}</strong>: {f.error}
              </li>
            ))}
          </ul>
        </Banner>
      ) : null}

      {!dialogOpen && activeUploads.length > 0 ? (
        <div className="files-uploading" role="status">
          <Spinner size="sm" />
          <span>
            Uploading {activeUploads.length} {activeUploads.length === 1 ? 'file' : 'files'}...
          </span>
          <Button variant="link" size="sm" onClick={() => setDialogOpen(true)}>
            Show progress
          </Button>
        </div>
      ) : null}

      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>

      {loading ? (
        <div className="panel vault-loading" role="status" aria-live="polite">
          <Spinner size="lg" />
          <p>Loading your files...</p>
        </div>
      ) : snapshot.status === 'error' ? null : (
        <section className="files-list" aria-labelledby="files-heading">
          <div className="files-list__header">
            <h2 id="files-heading" className="files-list__title">
              File Vault <span className="files-list__count">({snapshot.items.length})</span>
            </h2>
            <span className="files-list__e2e">
              <LockIcon width={13} height={13} /> End-to-end encrypted
            </span>
            <p className="files-list__status" aria-live="polite">
              {filtersActive ? `${shown.length} matching` : null}
              {snapshot.decryptingCount > 0 ? (
                <span className="vault-notes__progress">
                  <Spinner size="sm" /> Decrypting {snapshot.decryptingCount}...
                </span>
              ) : null}
            </p>
          </div>

          {shown.length === 0 ? (
            <div className="panel">
              {filtersActive ? (
                <EmptyState
                  icon={<SearchIcon width={32} height={32} />}
                  title="No files match your search"
                  action={
                    <Button variant="secondary" onClick={clearFilters}>
                      Clear filters
                    </Button>
                  }
                >
                  <p>Try another name or tag.</p>
                </EmptyState>
              ) : (
                <EmptyState
                  icon={<FolderIcon width={32} height={32} />}
                  title="No files uploaded"
                  action={
                    <Button
                      icon={<UploadIcon width={18} height={18} />}
                      onClick={openDialog}
                      disabled={!queue}
                    >
                      Upload Files
                    </Button>
                  }
                >
                  <p>
                    Upload documents and pictures. They are encrypted on this device before they leave it.
                  </p>
                </EmptyState>
              )}
            </div>
          ) : (
            <div className="file-grid-container">
              <ul className="file-grid">
                {shown.map((file) => (
                  <li key={file.dto.id}>
                    <FileCard
                      file={file}
                      thumbnailUrl={snapshot.thumbnails.get(file.dto.id)}
                      progress={access.progress.get(file.dto.id)}
                      onPreview={requestPreview}
                      onDownload={requestDownload}
                      onDelete={onDelete}
                      onNeedThumbnail={onNeedThumbnail}
                    />
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}

      <UploadDialog open={dialogOpen} onClose={closeDialog} queue={queue} uploads={uploads} />

      <ConfirmDialog
        open={pendingDelete !== null}
        title="Move to trash"
        message={FILE_MESSAGES.confirmDelete}
        confirmLabel="Move to trash"
        busy={deleteState.busy}
        error={deleteState.error}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </div>
  );
}
