import { formatCardDate } from '../../../lib/format';
import { TAGS_PER_CARD } from './limits';

/**
 * The first `max` characters (never splitting a surrogate pair), with an ellipsis when the text
 * was longer. Whitespace runs are kept: the card shows the text as written.
 */
export function previewText(content: string, max: number): string {
  if (content.length <= max) return content;
  let cut = content.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** Up to 3 tags and how many more there are ('+N more'). */
export function cardTags(tags: readonly string[], max = TAGS_PER_CARD): { shown: string[]; more: number } {
  return { shown: tags.slice(0, max), more: Math.max(0, tags.length - max) };
}

/** Spec section 2: the locale date plus hour and minute. Empty for a missing or bad date. */
export const formatNoteDate = formatCardDate;

/** The card's date: updated, or created when there is no update time. */
export function cardDate(
  note: { updatedAt?: string | null; createdAt?: string | null },
  locale?: string,
): string {
  return formatNoteDate(note.updatedAt || note.createdAt, locale);
}
