import type { ReactNode } from 'react';
import type { QueryStatus } from './query';

/**
 * What the trash page (features/trash) needs from each kind of item it lists. The features that own
 * the items make their section (notes: use-notes-trash, files: use-files-trash) and the app hands
 * them to the page (app/routes/trash.tsx), so the trash imports neither.
 */
export interface TrashSection {
  /** The item's noun in the page's messages: 'note', 'file'. */
  kind: string;
  /** The section's heading ('Deleted Notes') and its element id. */
  title: string;
  headingId: string;
  /** The items in the trash, newest first; undefined until the first answer. */
  entries: TrashEntry[] | undefined;
  status: QueryStatus;
  error: unknown;
  refetch: () => Promise<void>;
  /** Empties this kind's trash; answers how many items went (null: the server did not say). */
  empty: () => Promise<number | null>;
  /** After a change: this kind's counts and trash list are fetched again where shown. */
  changed: () => void;
}

export interface TrashEntry {
  id: string;
  /** The item's card, with the page's Restore and Delete. */
  card: (props: TrashCardProps) => ReactNode;
  /**
   * Restores the item (the server call). The page then takes it off the list, announces `message`,
   * and runs `after` (the item back in its list, counts fetched again).
   */
  restore: () => Promise<{ message: string; after: () => Promise<void> }>;
  /** Deletes it for good (the page takes a 404 as done). */
  purge: () => Promise<void>;
}

export interface TrashCardProps {
  busy: boolean;
  onRestore: () => void;
  onDelete: () => void;
}
