const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** Spec section 9, "Size units: Bytes, KB, MB, GB, base 1024": 0 → '0 Bytes', 1536 → '1.5 KB'. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = Math.round((bytes / 1024 ** i) * 100) / 100;
  return `${value} ${UNITS[i]}`;
}
