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
