import type { ReactNode } from 'react';
import { Spinner } from './spinner';

export interface ProgressNoteProps {
  children: ReactNode;
  /**
   * How far the work is, when its end is known: a small bar (`done` of `total`) instead of the
   * spinner. The bar moves only when the count does; a spinner draws a frame every 16 ms, which
   * on two cores took about a tenth of a core from decrypting a 10,000-note vault
   * (bench/vault.bench.mjs).
   */
  done?: number;
  total?: number;
  /** The bar's accessible name (it shows the same count as the text beside it). */
  label?: string;
}

/** Work still going on behind a list ('Decrypting 40 more...'): a bar or a small spinner, and the text. */
export function ProgressNote({ children, done, total, label = 'Progress' }: ProgressNoteProps) {
  const known = done !== undefined && total !== undefined && total > 0;
  return (
    <span className="vault-notes__progress">
      {known ? (
        <progress
          className="progress-bar progress-note__bar"
          max={total}
          value={Math.min(done, total)}
          aria-label={label}
        />
      ) : (
        <Spinner size="sm" />
      )}{' '}
      {children}
    </span>
  );
}
