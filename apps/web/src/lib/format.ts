/** mm:ss for a number of seconds (negative counts as 0; minutes may exceed 59: 600 → "10:00"). */
export function formatMmSs(totalSeconds: number): string {
  const s = Math.max(0, Math.ceil(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const minutes = Math.floor(s / 60);
  const seconds = s % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** Locale date, e.g. "21 Nov 2026" (undefined for an unparsable value). */
export function formatDate(iso: string | undefined, locale?: string): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric' });
}

/**
 * One pair of formatters per locale: `toLocaleDateString(locale)` and `toLocaleTimeString(locale,
 * {hour, minute})` build theirs anew on every call, and a vault's cards are drawn again at each
 * update while 10,000 notes arrive (the date was a tenth of the page's script time then).
 */
const cardDateFormats = new Map<string, { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

/**
 * A card's date (notes and files, spec section 2): the locale date plus hour and minute, exactly
 * as `${toLocaleDateString(locale)} ${toLocaleTimeString(locale, {hour: '2-digit', minute: '2-digit'})}`.
 * Empty for a missing or bad date.
 */
export function formatCardDate(iso: string | null | undefined, locale?: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const key = locale ?? '';
  let formats = cardDateFormats.get(key);
  if (!formats) {
    formats = {
      date: new Intl.DateTimeFormat(locale),
      time: new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }),
    };
    cardDateFormats.set(key, formats);
  }
  return `${formats.date.format(date)} ${formats.time.format(date)}`;
}

/** One collator for every call (`localeCompare` with options builds one per comparison). */
const naturalOrder = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/**
 * Tags in order (notes' tag panel, files' tag filter): alphabetical, case-insensitively, numbers
 * in natural order ('t2' before 't10'); then by code point, so 'Work' and 'work' keep a stable order.
 */
export function compareTags(a: string, b: string): number {
  return naturalOrder.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Spec section 9: sizes in Bytes, KB, MB, GB, base 1024 ("1.5 MB"). */
const BYTE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(BYTE_UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** i;
  return `${i === 0 ? value : parseFloat(value.toFixed(2))} ${BYTE_UNITS[i]}`;
}

/**
 * Locale date and time with the time zone, e.g. "21 Nov 2026, 09:30 UTC" (the text as given for an
 * unparsable value): times read across places (an admin and the account's owner) say which clock.
 * Intl refuses dateStyle/timeStyle with timeZoneName, hence the fields one by one.
 */
export function formatDateTime(iso: string, locale?: string, timeZone?: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(locale, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
        timeZone,
      });
}
