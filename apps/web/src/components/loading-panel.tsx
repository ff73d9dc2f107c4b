import { Spinner } from './spinner';

/**
 * A page's first load: the large spinner and what is loading, in a panel. `polite` also
 * announces it (a live region); the trash's panel is a plain status.
 */
export function LoadingPanel({ text, polite = true }: { text: string; polite?: boolean }) {
  return (
    <div className="panel vault-loading" role="status" aria-live={polite ? 'polite' : undefined}>
      <Spinner size="lg" />
      <p>{text}</p>
    </div>
  );
}
