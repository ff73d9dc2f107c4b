/**
 * Reads the services' logs that the harness collects in VAULT_E2E_LOG_DIR (one file per service: their
 * stdout and stderr), and searches them for secrets.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sleep } from './env';
import { ApiClient } from './http';

export interface LogFile {
  /** Path relative to the log folder, e.g. `auth.log`. */
  name: string;
  content: string;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

function totalSize(dir: string): number {
  return listFiles(dir).reduce((sum, path) => sum + statSync(path).size, 0);
}

/**
 * Waits until the services have written out what they logged: the folder's total size stops changing for
 * `quietMs` (pino writes asynchronously, and the harness pipes the output into the files).
 */
export async function settleLogs(dir: string, quietMs = 1000, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  let size = totalSize(dir);
  let stableSince = Date.now();
  while (Date.now() < until) {
    await sleep(100);
    const now = totalSize(dir);
    if (now !== size) {
      size = now;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= quietMs) {
      return;
    }
  }
}

/** Every file under the log folder, read whole. */
export function readLogs(dir: string): LogFile[] {
  return listFiles(dir).map((path) => ({ name: relative(dir, path), content: readFileSync(path, 'utf8') }));
}

export interface Secret {
  /** What it is, for the failure message (never the value itself). */
  label: string;
  value: string;
}

export interface SecretHit {
  label: string;
  where: string;
  /** The surrounding text, with the secret masked. */
  excerpt: string;
}

/** Case-insensitive search of `secrets` in named texts; returns every hit with a masked excerpt. */
export function findSecrets(texts: { name: string; content: string }[], secrets: Secret[]): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const { name, content } of texts) {
    const haystack = content.toLowerCase();
    for (const { label, value } of secrets) {
      const needle = value.toLowerCase();
      if (!needle) continue;
      let from = 0;
      for (let at = haystack.indexOf(needle, from); at >= 0; at = haystack.indexOf(needle, from)) {
        const excerpt = content
          .slice(Math.max(0, at - 120), at + needle.length + 120)
          .replace(new RegExp(escapeRegExp(needle), 'gi'), '<SECRET>');
        hits.push({ label, where: name, excerpt });
        from = at + needle.length;
        if (hits.length > 200) return hits;
      }
    }
  }
  return hits;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Polls the log folder until some file contains `text`; true when found within the time. */
export async function waitForLogText(dir: string, text: string, timeoutMs = 15_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (readLogs(dir).some((f) => f.content.includes(text))) return true;
    if (Date.now() >= until) return false;
    await sleep(200);
  }
}

/**
 * Every log file once the services have written out what they logged so far: the gateway is sent a
 * request (from a client named `clientName`) whose id it logs, that id is waited for in the folder
 * (`barrierSeen`: it showed in time; once it does, the log holds everything before it), then the
 * folder for settleLogs.
 */
export async function logsAfterBarrier(
  dir: string,
  clientName: string,
): Promise<{ barrierSeen: boolean; logs: LogFile[] }> {
  const barrier = `e2e-barrier-${randomBytes(8).toString('hex')}`;
  await new ApiClient(clientName).get('/api/health', { headers: { 'x-request-id': barrier } });
  const barrierSeen = await waitForLogText(dir, barrier);
  await settleLogs(dir);
  return { barrierSeen, logs: readLogs(dir) };
}
