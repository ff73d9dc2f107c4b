import { memo, useEffect, useRef } from 'react';
import { Button } from '../../../components/button';
import { CardTags } from '../../../components/card-tags';
import { AlertIcon, TrashIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import { STAGE_LABELS, TransferProgress } from '../access';
import type { FileTransferProgress, FileView } from '../types';
import { cardTags, fileKind, formatFileDate, formatFileSize } from '../utils/file-format';
import { FILE_MESSAGES } from '../utils/file-rules';
import { DownloadIcon, FileTypeIcon, PreviewIcon } from './file-icons';
import { ScanBadge, scanState } from './scan-badge';

export interface FileCardProps {
  file: FileView;
  thumbnailUrl: string | undefined;
  progress: FileTransferProgress | undefined;
  onPreview: (file: FileView) => void;
  onDownload: (file: FileView) => void;
  onDelete: (file: FileView) => void;
  /** The card is (about to be) on screen and its file has a thumbnail: fetch and decrypt it. */
  onNeedThumbnail: (id: string) => void;
}

/** What the card calls the file: its name, 'Decrypting...', or 'Encrypted File'. */
export function displayName(file: FileView): string {
  if (file.status === 'decrypting') return 'Decrypting...';
  if (file.status === 'failed') return FILE_MESSAGES.encryptedFile;
  return file.name;
}

/**
 * A file in the grid (spec section 2): icon by type (or its decrypted thumbnail), the name (or
 * 'Decrypting...' / 'Encrypted File'), size, upload date, up to 3 tags and '+N more', the scan
 * badge, the download/preview progress, and Preview, Download and Delete (a trash icon button) on
 * one row. An infected file cannot be previewed or downloaded.
 */
export const FileCard = memo(function FileCard({
  file,
  thumbnailUrl,
  progress,
  onPreview,
  onDownload,
  onDelete,
  onNeedThumbnail,
}: FileCardProps) {
  const ref = useRef<HTMLElement>(null);
  const id = file.dto.id;
  const name = displayName(file);
  const titleId = `file-${id}-name`;
  const infected = scanState(file.dto) === 'infected';
  const wantsThumbnail = file.status === 'ready' && file.dto.hasThumbnail && !thumbnailUrl;
  const { shown, more } = cardTags(file.tags);
  const date = formatFileDate(file.dto.uploadedAt);
  const transferring =
    progress !== undefined && (progress.stage === 'downloading' || progress.stage === 'decrypting');

  // Thumbnails are fetched for the cards that come into view (all at once where there is no IntersectionObserver).
  useEffect(() => {
    if (!wantsThumbnail) return;
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') {
      onNeedThumbnail(id);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          onNeedThumbnail(id);
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [wantsThumbnail, id, onNeedThumbnail]);

  return (
    <article
      ref={ref}
      className={`file-card${file.status === 'failed' ? ' file-card--failed' : ''}${infected ? ' file-card--infected' : ''}`}
      aria-labelledby={titleId}
      data-file-id={id}
    >
      <div className="file-card__media">
        {thumbnailUrl ? (
          <img className="file-card__thumb" src={thumbnailUrl} alt="" />
        ) : (
          <span className={`file-card__icon file-card__icon--${fileKind(file.mimeType)}`}>
            {file.status === 'decrypting' ? (
              <Spinner size="sm" />
            ) : (
              <FileTypeIcon kind={fileKind(file.mimeType)} width={30} height={30} />
            )}
          </span>
        )}
      </div>
      <div className="file-card__body">
        <h3 className="file-card__name" id={titleId} title={file.status === 'ready' ? file.name : undefined}>
          {file.status === 'failed' ? <AlertIcon width={15} height={15} /> : null}
          <span>{name}</span>
        </h3>
        <p className="file-card__meta">
          <span>{formatFileSize(file.dto.size)}</span>
          {date ? (
            <>
              <span aria-hidden="true"> · </span>
              <time dateTime={file.dto.uploadedAt}>{date}</time>
            </>
          ) : null}
        </p>
        {file.status === 'failed' ? (
          <p className="file-card__failed">{FILE_MESSAGES.metadataFailed}</p>
        ) : null}
        <CardTags className="file-card__tags" shown={shown} more={more} />
        <div className="file-card__status">
          <ScanBadge dto={file.dto} />
        </div>
        {infected ? (
          <p className="file-card__infected">
            <AlertIcon width={14} height={14} /> {FILE_MESSAGES.infected}
          </p>
        ) : null}
        {progress ? (
          <TransferProgress
            progress={progress}
            label={`${name}: ${STAGE_LABELS[progress.stage]} ${progress.percent}%`}
          />
        ) : null}
      </div>
      <footer className="file-card__actions">
        <Button
          variant="secondary"
          size="sm"
          icon={<PreviewIcon width={16} height={16} />}
          disabled={infected || file.status !== 'ready' || transferring}
          onClick={() => onPreview(file)}
          aria-label={`Preview ${name}`}
        >
          Preview
        </Button>
        <Button
          variant="secondary"
          size="sm"
          icon={<DownloadIcon width={16} height={16} />}
          disabled={infected || file.status === 'decrypting' || transferring}
          onClick={() => onDownload(file)}
          aria-label={`Download ${name}`}
        >
          Download
        </Button>
        {/* An icon button at the row's end, so that the three actions fit one row of any card. */}
        <button
          type="button"
          className="icon-btn file-card__delete"
          title="Delete"
          disabled={file.status === 'decrypting'}
          onClick={() => onDelete(file)}
          aria-label={`Delete ${name}`}
        >
          <TrashIcon width={16} height={16} />
        </button>
      </footer>
    </article>
  );
});
