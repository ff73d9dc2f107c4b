// Debian's headless Chromium as everything here drives it through playwright-core: the browser specs
// (apps/e2e/browser), the browser benchmarks (bench/, apps/web/bench) and the crypto vectors'
// browser run (libs/crypto/test/browser). No browser is downloaded (docs/operations.md).
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { chromium } from 'playwright-core';

/** Debian's Chromium, unless CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a quiet headless Chromium in a container: no sandbox, no GPU, no background traffic. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The options both launches share: headless, CHROMIUM_PATH unless `executablePath` says otherwise,
 * CHROMIUM_ARGS then `args`; any other option passes through.
 */
function launchOptions({ executablePath = CHROMIUM_PATH, args = [], ...options }) {
  return { executablePath, headless: true, ...options, args: [...CHROMIUM_ARGS, ...args] };
}

/** A headless Chromium (see launchOptions). */
export function launchChromium(options = {}) {
  return chromium.launch(launchOptions(options));
}

/**
 * A headless Chromium on a persistent profile in `dir` (see launchOptions): unlike an incognito
 * context it keeps OPFS on disk, as a user's profile does.
 */
export function launchPersistentChromium(dir, options = {}) {
  return chromium.launchPersistentContext(dir, launchOptions(options));
}

/**
 * The browser process started with `marker` among its arguments and every process under it, each
 * as { pid, ppid, rss (KiB), type (Chromium's --type, 'browser' for the browser process itself) },
 * the browser first; empty when there is none (yet). Read from /proc, so Linux only.
 */
export async function chromiumProcessTree(marker) {
  const all = new Map();
  let root = null;
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1] ?? 0);
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const type = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser';
      if (cmd.includes(marker) && type === 'browser') root = Number(name);
      all.set(Number(name), { ppid, rss, type });
    } catch {
      // gone
    }
  }
  const tree = [];
  const walk = (pid) => {
    const p = all.get(pid);
    if (!p) return;
    tree.push({ pid, ...p });
    for (const [child, c] of all) if (c.ppid === pid) walk(child);
  };
  if (root !== null) walk(root);
  return tree;
}
