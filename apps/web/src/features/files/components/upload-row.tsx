import { CheckIcon, CloseIcon } from '../../../components/icons';
import { Spinner } from '../../../components/spinner';
import type { UploadItem, UploadStatus } from '../state/upload-queue';
import { fileKind, formatFileSize } from '../utils/file-format';
import { FileTypeIcon } from './file-icons';

export const UPLOAD_STATUS_LABELS: Record<UploadStatus, string> = {
  queued: 'Ready to upload',
  encrypting: 'Encrypting',
  uploading: 'Uploading',
  completing: 'Completing',
  completed: 'Completed',
  error: 'Failed',
};

/**
 * One file in the upload dialog's list: its type icon (a check once completed), name, size,
 * status, the progress bar once started, its error, and Remove while it has not started.
 */
export function UploadRow({ item, onRemove }: { item: UploadItem; onRemove: () => void }) {
  const label = UPLOAD_STATUS_LABELS[item.status];
  const moving = item.status === 'encrypting' || item.status === 'uploading' || item.status === 'completing';
  const removable = !moving && !(item.started && item.status === 'queued') && item.status !== 'completed';
  return (
    <li className={`upload-row upload-row--${item.status}`}>
      <span className="upload-row__icon">
        {item.status === 'completed' ? (
          <CheckIcon width={20} height={20} />
        ) : (
          <FileTypeIcon kind={fileKind(item.mimeType)} width={22} height={22} />
        )}
      </span>
      <div className="upload-row__main">
        <div className="upload-row__line">
          <span className="upload-row__name" title={item.name}>
            {item.name}
          </span>
          <span className="upload-row__size">{formatFileSize(item.size)}</span>
        </div>
        <div className="upload-row__line">
          <span className="upload-row__status">
            {/* The bar shows the progress; only upload-complete, which has none, spins. */}
            {item.status === 'completing' ? <Spinner size="sm" /> : null}
            {label}
          </span>
          {item.started && item.status !== 'error' ? (
            <span className="upload-row__percent">{item.progress}%</span>
          ) : null}
        </div>
        {item.started && item.status !== 'error' ? (
          <div
            className="upload-row__bar"
            role="progressbar"
            aria-label={`${item.name}: ${label}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={item.progress}
            aria-valuetext={`${label} ${item.progress}%`}
          >
            <span className="upload-row__fill" style={{ transform: `scaleX(${item.progress / 100})` }} />
          </div>
        ) : null}
        {item.error ? (
          <p className="upload-row__error" role="alert">
            {item.error}
          </p>
        ) : null}
      </div>
      {removable ? (
        <button
          type="button"
          className="icon-btn upload-row__remove"
          aria-label={`Remove ${item.name}`}
          onClick={onRemove}
        >
          <CloseIcon width={16} height={16} />
        </button>
      ) : null}
    </li>
  );
}
