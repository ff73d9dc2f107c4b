/** Spec section 9: sizes in Bytes, KB, MB, GB, base 1024 (shared with the admin console). */
export { formatBytes as formatFileSize } from '../../../lib/format';

/** The trash's file card: the size in KB (spec section 2). */
export function formatSizeKb(bytes: number): string {
  const kb = Math.max(0, bytes) / 1024;
  return `${kb < 10 ? parseFloat(kb.toFixed(2)) : Math.round(kb).toLocaleString('en-US')} KB`;
}

/** The locale date plus hour and minute, as the notes show it. Empty for a missing or bad date. */
export { formatCardDate as formatFileDate } from '../../../lib/format';

export type FileKind =
  'image' | 'pdf' | 'text' | 'document' | 'spreadsheet' | 'archive' | 'video' | 'audio' | 'other';

/** The card's icon, by (decrypted) type. */
export function fileKind(mimeType: string): FileKind {
  const t = mimeType.toLowerCase();
  if (t.startsWith('image/')) return 'image';
  if (t === 'application/pdf') return 'pdf';
  if (t.startsWith('text/')) return 'text';
  if (t.startsWith('video/')) return 'video';
  if (t.startsWith('audio/')) return 'audio';
  if (t === 'application/msword' || t.includes('wordprocessingml')) return 'document';
  if (t === 'application/vnd.ms-excel' || t.includes('spreadsheetml')) return 'spreadsheet';
  if (t.includes('zip')) return 'archive';
  return 'other';
}

/** Up to 3 tags and how many more there are ('+N more'). */
export function cardTags(tags: readonly string[], max = 3): { shown: string[]; more: number } {
  return { shown: tags.slice(0, max), more: Math.max(0, tags.length - max) };
}
