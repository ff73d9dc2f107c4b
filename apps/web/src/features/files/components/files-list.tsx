import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { FolderIcon, LockIcon } from '../../../components/icons';
import { ProgressNote } from '../../../components/progress-note';
import type { FileTransferProgress, FileView } from '../types';

import { FileCard } from './file-card';
import { SearchIcon, UploadIcon } from './file-icons';

export interface FilesListProps {
  /** Every file in the vault (the heading's count), and the ones the filters let through. */
  total: number;
  shown: readonly FileView[];
  filtersActive: boolean;
  decryptingCount: number;
  thumbnails: ReadonlyMap<string, string>;
  progress: ReadonlyMap<string, FileTransferProgress>;
  onPreview: (file: FileView) => void;
  onDownload: (file: FileView) => void;
  onDelete: (file: FileView) => void;
  onNeedThumbnail: (id: string) => void;
  onClearFilters: () => void;
  /** The empty vault's Upload Files (disabled while there is no upload queue). */
  onUpload: () => void;
  uploadDisabled: boolean;
}

/**
 * 'File Vault (count)' with 'End-to-end encrypted', the matching and decrypting counts, and the
 * card grid, or the empty state (no files yet, or none matching the filters).
 */
export function FilesList({
  total,
  shown,
  filtersActive,
  decryptingCount,
  thumbnails,
  progress,
  onPreview,
  onDownload,
  onDelete,
  onNeedThumbnail,
  onClearFilters,
  onUpload,
  uploadDisabled,
}: FilesListProps) {
  return (
    <section className="files-list" aria-labelledby="files-heading">
      <div className="files-list__header">
        <h2 id="files-heading" className="files-list__title">
          File Vault <span className="files-list__count">({total})</span>
        </h2>
        <span className="files-list__e2e">
          <LockIcon width={13} height={13} /> End-to-end encrypted
        </span>
        <p className="files-list__status" aria-live="polite">
          {filtersActive ? `${shown.length} matching` : null}
          {decryptingCount > 0 ? <ProgressNote>Decrypting {decryptingCount}...</ProgressNote> : null}
        </p>
      </div>

      {shown.length === 0 ? (
        <div className="panel">
          {filtersActive ? (
            <EmptyState
              icon={<SearchIcon width={32} height={32} />}
              title="No files match your search"
              action={
                <Button variant="secondary" onClick={onClearFilters}>
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
                  onClick={onUpload}
                  disabled={uploadDisabled}
                >
                  Upload Files
                </Button>
              }
            >
              <p>Upload documents and pictures. They are encrypted on this device before they leave it.</p>
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
                  thumbnailUrl={thumbnails.get(file.dto.id)}
                  progress={progress.get(file.dto.id)}
                  onPreview={onPreview}
                  onDownload={onDownload}
                  onDelete={onDelete}
                  onNeedThumbnail={onNeedThumbnail}
                />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
