/** Spec section 3, "Preview content (client)": how a decrypted file is shown. */
export type PreviewKind = 'text' | 'code' | 'image' | 'pdf' | 'video' | 'audio' | 'document' | 'unsupported';

const CODE_EXTENSIONS = new Set([
  'js',
  'mjs',
  'cjs',
  'jsx',
  'ts',
  'tsx',
  'json',
  'xml',
  'html',
  'htm',
  'css',
  'scss',
  'py',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'c',
  'h',
  'cpp',
  'hpp',
  'cc',
  'cs',
  'php',
  'sh',
  'bash',
  'zsh',
  'sql',
  'yml',
  'yaml',
  'toml',
  'ini',
  'swift',
  'lua',
  'pl',
  'r',
  'dart',
  'vue',
  'svelte',
]);
const TEXT_EXTENSIONS = new Set(['txt', 'text', 'md', 'markdown', 'csv', 'tsv', 'log', 'rtf', 'env', 'conf']);
const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'avif', 'svg', 'ico']);
const VIDEO_EXTENSIONS = new Set(['mp4', 'webm', 'ogv', 'mov', 'm4v']);
const AUDIO_EXTENSIONS = new Set(['mp3', 'wav', 'ogg', 'oga', 'm4a', 'aac', 'flac', 'opus']);
const DOCUMENT_EXTENSIONS = new Set([
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'zip',
  '7z',
  'rar',
  'gz',
  'tar',
]);

const CODE_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-sh',
  'application/sql',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
]);
const DOCUMENT_TYPES = new Set([
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/zip',
  'application/x-zip-compressed',
  'application/x-7z-compressed',
  'application/vnd.rar',
  'application/gzip',
  'application/x-tar',
  'application/rtf',
]);

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The MIME type without parameters, lower case ('text/plain; charset=utf-8' → 'text/plain'). */
export function baseMimeType(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * The kind of preview for a decrypted file, by its MIME type first and its extension when the type
 * says nothing useful (empty or application/octet-stream).
 */
export function previewKindOf(mimeType: string, name: string): PreviewKind {
  const type = baseMimeType(mimeType);
  const ext = extensionOf(name);
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  if (CODE_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml')) return 'code';
  if (type === 'text/html' || type === 'text/css' || type === 'text/javascript' || type === 'text/xml') {
    return 'code';
  }
  if (type.startsWith('text/')) return CODE_EXTENSIONS.has(ext) ? 'code' : 'text';
  if (
    DOCUMENT_TYPES.has(type) ||
    type.startsWith('application/vnd.openxmlformats-officedocument.') ||
    type.startsWith('application/vnd.oasis.opendocument.')
  ) {
    return 'document';
  }
  if (type && type !== 'application/octet-stream') return 'unsupported';
  if (ext === 'pdf') return 'pdf';
  if (IMAGE_EXTENSIONS.has(ext)) return 'image';
  if (VIDEO_EXTENSIONS.has(ext)) return 'video';
  if (AUDIO_EXTENSIONS.has(ext)) return 'audio';
  if (CODE_EXTENSIONS.has(ext)) return 'code';
  if (TEXT_EXTENSIONS.has(ext)) return 'text';
  if (DOCUMENT_EXTENSIONS.has(ext)) return 'document';
  return 'unsupported';
}

const MEDIA_FALLBACK: Partial<Record<PreviewKind, string>> = {
  pdf: 'application/pdf',
  image: 'image/png',
  video: 'video/mp4',
  audio: 'audio/mpeg',
};

/**
 * The type given to a preview's object URL. Always one that matches the kind shown (never
 * text/html or anything a browser would run as a page of this origin), whatever the decrypted
 * metadata says.
 */
export function objectUrlTypeFor(kind: PreviewKind, mimeType: string): string {
  const type = baseMimeType(mimeType);
  if (kind === 'pdf') return 'application/pdf';
  if (kind === 'image' || kind === 'video' || kind === 'audio') {
    return /^(image|video|audio)\/[a-z0-9.+-]+$/.test(type) && type.startsWith(`${kind}/`)
      ? type
      : (MEDIA_FALLBACK[kind] ?? 'application/octet-stream');
  }
  return 'application/octet-stream';
}
