import { formatFileSize } from '../../../utils/file-format';

export interface TextPreviewProps {
  text: string;
  kind: 'text' | 'code';
  /** Set when only the first part of the file is shown. */
  truncated?: { shownBytes: number; totalBytes: number } | undefined;
}

/** Text or source code, monospace, exactly as decoded (UTF-8); never interpreted as markup. */
export function TextPreview({ text, kind, truncated }: TextPreviewProps) {
  return (
    <div className="preview__textwrap">
      {truncated ? (
        <p className="preview__note" role="note">
          Showing the first {formatFileSize(truncated.shownBytes)} of {formatFileSize(truncated.totalBytes)}.
          Download the file to see all of it.
        </p>
      ) : null}
      <pre className={`preview__text preview__text--${kind}`} tabIndex={0} aria-label="File content">
        {text}
      </pre>
    </div>
  );
}
