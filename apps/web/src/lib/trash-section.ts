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
  /** What the item's card shows; the page draws it (trash-card) with its Restore and Delete. */
  card: TrashCardContent;
  /**
   * Restores the item (the server call). The page then takes it off the list, announces `message`,
   * and runs `after` (the item back in its list, counts fetched again).
   */
  restore: () => Promise<{ message: string; after: () => Promise<void> }>;
  /** Deletes it for good (the page takes a 404 as done). */
  purge: () => Promise<void>;
}

/** One item's card in the trash, as its feature describes it. */
export interface TrashCardContent {
  /** The item's name: the card's title and the name in its buttons' labels. */
  name: string;
  /** Not decrypted: the card is marked failed and its title shows the alert icon, not `icon`. */
  failed: boolean;
  titleId: string;
  /** More classes and the data attributes of the card's <article>. */
  className?: string;
  attributes: Record<`data-${string}`, string>;
  icon?: ReactNode;
  /** The paragraph under the title, and its extra classes. */
  preview: ReactNode;
  previewClassName?: string;
  /** The deleted date: the <time>'s dateTime and the shown date (empty: no date). */
  deletedAt: string | null;
  deletedOn: string;
}
