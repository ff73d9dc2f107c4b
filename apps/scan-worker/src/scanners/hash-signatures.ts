import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The hash algorithm of a ClamAV hash signature, told by the hash's length. */
export type HashAlgorithm = 'md5' | 'sha1' | 'sha256';
const ALGORITHM_BY_LENGTH: Record<number, HashAlgorithm> = { 32: 'md5', 40: 'sha1', 64: 'sha256' };

export interface HashSignature {
  algorithm: HashAlgorithm;
  /** Bytes of the file the hash is of, or null for `*` (any size). */
  size: number | null;
  name: string;
}

/** Files of hash signatures (`HashString:FileSize:MalwareName[:FLevel]`): .hdb (MD5) and .hsb (SHA-1/256). */
const SIGNATURE_FILE = /\.(hdb|hsb)$/i;

/** Parses one signature file's text; malformed lines are skipped, as clamd would refuse them. */
export function parseHashSignatures(text: string): Map<string, HashSignature[]> {
  const out = new Map<string, HashSignature[]>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [hash = '', size = '', name = ''] = line.split(':');
    const algorithm = ALGORITHM_BY_LENGTH[hash.length];
    if (!algorithm || !/^[0-9a-f]+$/i.test(hash) || !name) continue;
    if (size !== '*' && !/^\d+$/.test(size)) continue;
    const key = hash.toLowerCase();
    const list = out.get(key) ?? [];
    list.push({ algorithm, size: size === '*' ? null : Number(size), name });
    out.set(key, list);
  }
  return out;
}

/** How often the folder is looked at again for new or updated signature files (freshclam). */
const RECHECK_MS = 60_000;

/**
 * The hash signatures of a clamd database folder (its DatabaseDirectory), for the opt-in
 * malware-fingerprint check (docs/architecture.md
 * "Virus scanning of end-to-end encrypted files"): the client sends the SHA-256 of a file's
 * plaintext and the worker looks it up here. clamd itself has no command to look up a hash, so
 * the worker reads the same .hdb/.hsb files clamd loads. Loaded on first use and again when the
 * files change.
 */
export class HashSignatureDatabase {
  private signatures = new Map<string, HashSignature[]>();
  private version = '';
  private checkedAt = 0;
  private loading?: Promise<void>;

  constructor(readonly dir: string) {}

  /** The name of a signature matching this hash (and size), or null. Throws when the folder cannot be read. */
  async lookup(hash: string, size: number, now = Date.now()): Promise<string | null> {
    await this.refresh(now);
    const matches = this.signatures.get(hash.toLowerCase()) ?? [];
    return matches.find((s) => s.size === null || s.size === size)?.name ?? null;
  }

  private async refresh(now: number): Promise<void> {
    if (this.checkedAt !== 0 && now - this.checkedAt < RECHECK_MS) return;
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    await this.loading;
    this.checkedAt = now;
  }

  private async load(): Promise<void> {
    const names = (await readdir(this.dir)).filter((n) => SIGNATURE_FILE.test(n)).sort();
    const stats = await Promise.all(names.map((n) => stat(join(this.dir, n))));
    const version = names.map((n, i) => `${n}:${stats[i]!.size}:${stats[i]!.mtimeMs}`).join('|');
    if (version === this.version) return;
    const next = new Map<string, HashSignature[]>();
    for (const name of names) {
      for (const [hash, list] of parseHashSignatures(await readFile(join(this.dir, name), 'utf8'))) {
        next.set(hash, [...(next.get(hash) ?? []), ...list]);
      }
    }
    this.signatures = next;
    this.version = version;
  }
}
