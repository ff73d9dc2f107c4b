import type { ReactNode } from 'react';
import { AlertIcon, InfoIcon } from '../../../../../components/icons';

export interface MessagePanelProps {
  title: string;
  children?: ReactNode;
  tone?: 'info' | 'danger';
  /** Buttons under the text. */
  actions?: ReactNode;
}

/** The centred message of a preview that shows no content (document, unsupported, error). */
export function MessagePanel({ title, children, tone = 'info', actions }: MessagePanelProps) {
  return (
    <div
      className={`preview__message preview__message--${tone}`}
      role={tone === 'danger' ? 'alert' : undefined}
    >
      <span className="preview__message-icon" aria-hidden="true">
        {tone === 'danger' ? <AlertIcon width={28} height={28} /> : <InfoIcon width={28} height={28} />}
      </span>
      <h3 className="preview__message-title">{title}</h3>
      {children ? <p className="preview__message-text">{children}</p> : null}
      {actions ? <div className="preview__message-actions">{actions}</div> : null}
    </div>
  );
}
