import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import type { UploadQueue, UploadSnapshot } from '../state/upload-queue';

/**
 * What the files page says about uploads while the dialog is closed: the started uploads that
 * failed (with Dismiss), and how many are still running (with Show progress).
 */
export function UploadNotices({
  queue,
  uploads,
  dialogOpen,
  onShowProgress,
}: {
  queue: UploadQueue | null;
  uploads: UploadSnapshot;
  dialogOpen: boolean;
  onShowProgress: () => void;
}) {
  const activeUploads = uploads.items.filter(
    (i) => i.started && i.status !== 'completed' && i.status !== 'error',
  );
  return (
    <>
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
          <Button variant="link" size="sm" onClick={onShowProgress}>
            Show progress
          </Button>
        </div>
      ) : null}
    </>
  );
}
