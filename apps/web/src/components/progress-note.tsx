import type { ReactNode } from 'react';
import { Spinner } from './spinner';

/** Work still going on behind a list ('Decrypting 40 more...'): a small spinner and the text. */
export function ProgressNote({ children }: { children: ReactNode }) {
  return (
    <span className="vault-notes__progress">
      <Spinner size="sm" /> {children}
    </span>
  );
}
