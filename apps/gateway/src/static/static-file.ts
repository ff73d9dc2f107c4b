import { statSync } from 'node:fs';
import { isAbsolute, join, normalize, sep } from 'node:path';

/**
 * A request path as a file inside root, or undefined. Refuses traversal, NUL bytes,
 * dot-files and anything that is not a regular file.
 */
export function staticFileFor(root: string, url: string): string | undefined {
  const q = url.indexOf('?');
  let path: string;
  try {
    path = decodeURIComponent(q === -1 ? url : url.slice(0, q));
  } catch {
    return undefined;
  }
  if (path.includes('\0') || path.includes('\\')) return undefined;
  const relative = normalize(path).replace(/^\/+/, '');
  if (relative === '' || isAbsolute(relative)) return undefined;
  if (relative.split('/').some((segment) => segment === '..' || segment.startsWith('.'))) return undefined;
  const full = join(root, relative);
  if (!full.startsWith(root + sep)) return undefined;
  try {
    return statSync(full).isFile() ? relative : undefined;
  } catch {
    return undefined;
  }
}
