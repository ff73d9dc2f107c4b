import { compareTags } from '../../../lib/format';
import type { DecryptedNote, NoteItem } from '../state/notes-store';

/** Spec section 5: search is a case-insensitive match on decrypted title, content or tags. */
export function matchesSearch(note: Pick<DecryptedNote, 'searchText'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || note.searchText.includes(q);
}

/** Spec section 5: a note must have all selected tags. */
export function hasAllTags(note: Pick<DecryptedNote, 'tags'>, selected: readonly string[]): boolean {
  return selected.every((tag) => note.tags.includes(tag));
}

export function hasActiveFilters(searchQuery: string, selectedTags: readonly string[]): boolean {
  return searchQuery.trim() !== '' || selectedTags.length > 0;
}

export function filterNotes<T extends Pick<DecryptedNote, 'searchText' | 'tags'>>(
  notes: readonly T[],
  { searchQuery, selectedTags }: { searchQuery: string; selectedTags: readonly string[] },
): T[] {
  if (!hasActiveFilters(searchQuery, selectedTags)) return [...notes];
  return notes.filter((n) => hasAllTags(n, selectedTags) && matchesSearch(n, searchQuery));
}

export interface TagCount {
  tag: string;
  count: number;
}

/** Spec section 2, tag panel: the unique tags, sorted alphabetically, each with its number of notes. */
export function collectTags(notes: readonly Pick<DecryptedNote, 'tags'>[]): TagCount[] {
  const counts = new Map<string, number>();
  for (const note of notes) {
    for (const tag of new Set(note.tags)) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => compareTags(a.tag, b.tag));
}

/**
 * What the grid shows, in the API's order: without filters every decrypted note and every note
 * that failed to decrypt (as a 'Failed to decrypt note' card); with filters only the decrypted
 * notes that match. Notes still waiting for decryption are not shown yet.
 */
export function visibleItems(
  items: readonly NoteItem[],
  filters: { searchQuery: string; selectedTags: readonly string[] },
): NoteItem[] {
  const active = hasActiveFilters(filters.searchQuery, filters.selectedTags);
  const out: NoteItem[] = [];
  for (const item of items) {
    if (item.kind === 'pending') continue;
    if (item.kind === 'failed') {
      if (!active) out.push(item);
      continue;
    }
    if (
      !active ||
      (hasAllTags(item.note, filters.selectedTags) && matchesSearch(item.note, filters.searchQuery))
    ) {
      out.push(item);
    }
  }
  return out;
}
