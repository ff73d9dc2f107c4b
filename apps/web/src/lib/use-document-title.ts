import { useEffect } from 'react';

/** Sets the tab title to "{title} · Vault" while the page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title ? `${title} · Vault` : 'Vault';
    return () => {
      document.title = previous;
    };
  }, [title]);
}
