import type { FileTransferProgress } from '../../types';

/** Spec section 4, "Download stages": the words shown for each stage. */
export const STAGE_LABELS: Record<FileTransferProgress['stage'], string> = {
  downloading: 'Downloading',
  decrypting: 'Decrypting',
  completed: 'Completed',
  error: 'Failed',
};

/** A download or preview's progress: stage, percent and a bar (usable on the file cards too). */
export function TransferProgress({ progress, label }: { progress: FileTransferProgress; label?: string }) {
  const text =
    progress.stage === 'error' ? (progress.error ?? STAGE_LABELS.error) : STAGE_LABELS[progress.stage];
  return (
    <div className={`transfer-progress transfer-progress--${progress.stage}`}>
      <div className="transfer-progress__row">
        <span className="transfer-progress__stage">{text}</span>
        {progress.stage === 'error' ? null : (
          <span className="transfer-progress__percent">{progress.percent}%</span>
        )}
      </div>
      <progress
        className="progress-bar transfer-progress__bar"
        max={100}
        value={progress.percent}
        aria-label={label ?? `${text} ${progress.percent}%`}
      />
    </div>
  );
}
