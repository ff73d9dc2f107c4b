/**
 * CPU time by thread, for `--threads` of the browser benchmarks: where the core-seconds of a timed
 * window went (the page's main thread, a worker, Chromium's I/O or compositor threads, a service's
 * event loop, ...). Reads utime + stime of every thread on the machine from /proc at the window's
 * start and end; a thread is named by its process (Chromium's --type, a Node service by its
 * script, else the command) and its own name. Linux only; elsewhere the snapshot is empty.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** Kernel clock ticks per second (USER_HZ) in /proc's times. */
export const CLOCK_TICKS = 100;

function processLabel(pid) {
  try {
    // Chromium rewrites its children's command lines as one string: split on NULs and spaces.
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
    if (argv.length === 0) return null;
    const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    const type = argv.find((a) => a.startsWith('--type='))?.slice(7);
    if (type !== undefined || /chrom/i.test(comm)) {
      const sub = argv.find((a) => a.startsWith('--utility-sub-type='))?.slice(19);
      return `chromium:${sub ? sub.split('.').pop() : (type ?? 'browser')}`;
    }
    if (comm === 'node' || argv[0].endsWith('/node') || argv[0] === 'node') {
      // A service (apps/<name>/dist/...) or a script: its first path argument names it.
      const script = argv.slice(1).find((a) => !a.startsWith('-')) ?? '';
      const app = /apps\/([^/]+)\//.exec(script)?.[1];
      return `node:${app ?? script.split('/').pop() ?? 'node'}`;
    }
    return comm;
  } catch {
    return null;
  }
}

/** Ticks (1/100 s) of every thread now: Map of "process | thread" → ticks. */
export function threadTicks() {
  const out = new Map();
  let pids;
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return out;
  }
  for (const pid of pids) {
    const label = processLabel(pid);
    if (label === null) continue;
    let tids;
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        const name = stat.slice(stat.indexOf('(') + 1, close);
        const fields = stat.slice(close + 2).split(' ');
        // Fields after the name: state is [0], utime [11], stime [12].
        const ticks = Number(fields[11]) + Number(fields[12]);
        // Worker pools share a name: summed per process and name.
        const key = `${label} | ${name.replace(/\d+$/, '')}`;
        out.set(key, (out.get(key) ?? 0) + ticks);
      } catch {
        // the thread ended
      }
    }
  }
  return out;
}

/**
 * Core-seconds by thread between two snapshots, largest first; threads under `minSeconds` are
 * left out. Threads that ended inside the window count as zero (their time is lost with them).
 */
export function threadDelta(before, after, minSeconds = 0.02) {
  const rows = [];
  for (const [key, ticks] of after) {
    const s = (ticks - (before.get(key) ?? 0)) / CLOCK_TICKS;
    if (s >= minSeconds) rows.push([key, Number(s.toFixed(2))]);
  }
  return rows.sort((a, b) => b[1] - a[1]);
}
