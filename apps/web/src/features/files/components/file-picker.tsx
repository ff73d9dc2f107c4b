import type { ReactNode } from 'react';
import { ACCEPT_ATTRIBUTE } from '../utils/file-rules';

/**
 * A button-styled label around a hidden multiple file input (the accepted types of spec section
 * 5). The input is emptied after each choice, so choosing the same file again is seen.
 */
export function FilePicker({
  onFiles,
  disabled,
  children,
}: {
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <label className="btn btn--secondary btn--md file-picker">
      <input
        type="file"
        className="visually-hidden"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        disabled={disabled}
        onChange={(e) => {
          const files = e.target.files ? Array.from(e.target.files) : [];
          e.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      {children}
    </label>
  );
}
