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
