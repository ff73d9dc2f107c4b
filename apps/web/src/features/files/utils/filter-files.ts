import { compareTags } from '../../../lib/format';
import type { FileView } from '../types';

export interface FileFilters {
  searchQuery: string;
  /** null: 'All tags'. */
  tag: string | null;
}

export function hasActiveFilters({ searchQuery, tag }: FileFilters): boolean {
  return searchQuery.trim() !== '' || tag !== null;
}

/**
 * What the grid shows, in the list's order. Without filters: every file (those still being
 * decrypted as 'Decrypting...' cards). With filters: the decrypted files whose name contains the
 * search (case-insensitive) and that carry the selected tag.
 */
export function filterFiles(items: readonly FileView[], filters: FileFilters): FileView[] {
  if (!hasActiveFilters(filters)) return [...items];
  const q = filters.searchQuery.trim().toLowerCase();
  return items.filter(
    (f) =>
      f.status === 'ready' &&
      (q === '' || f.name.toLowerCase().includes(q)) &&
      (filters.tag === null || f.tags.includes(filters.tag)),
  );
}

/** The tag filter's options: every tag of the decrypted files, alphabetically (natural order). */
export function collectFileTags(items: readonly FileView[]): string[] {
  const tags = new Set<string>();
  for (const f of items) if (f.status === 'ready') for (const t of f.tags) tags.add(t);
  return [...tags].sort(compareTags);
}
