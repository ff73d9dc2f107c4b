import { createPortal } from 'react-dom';
import { Banner } from '../../../../components/banner';
import { CloseIcon } from '../../../../components/icons';

export interface TransferNotice {
  id: number;
  fileId: string;
  title: string;
  text: string;
}

/**
 * Failed downloads, announced and kept on screen until dismissed (an error is never only a
 * colour on a card). Rendered in a portal beside the app, so they stay usable while a dialog
 * makes the app inert.
 */
export function TransferNotices({
  notices,
  onDismiss,
}: {
  notices: readonly TransferNotice[];
  onDismiss: (id: number) => void;
}) {
  if (notices.length === 0) return null;
  return createPortal(
    <div className="file-access-notices" aria-label="File transfers">
      {notices.map((n) => (
        <Banner
          key={n.id}
          tone="danger"
          role="alert"
          title={n.title}
          action={
            <button
              type="button"
              className="icon-btn"
              aria-label={`Dismiss: ${n.text}`}
              onClick={() => onDismiss(n.id)}
            >
              <CloseIcon width={16} height={16} />
            </button>
          }
        >
          {n.text}
        </Banner>
      ))}
    </div>,
    document.body,
  );
}
