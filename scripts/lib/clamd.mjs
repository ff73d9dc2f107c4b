// ClamAV for local mode and the scan worker's tests (docs/operations.md "Toolchain on the test machines").
// Only Node built-ins: this runs before `npm install`.
//
// There is no official signature database offline (freshclam cannot reach its mirror) and
// clamd refuses to start without one, so startClamd() writes a tiny database of our own:
//   vault-test.ndb  the EICAR test string (detected as `Vault.Test.EICAR.UNOFFICIAL`)
//   vault.hsb       SHA-256 hash signatures, `sha256:size:name`, one per line; features may
//                   append lines and call `reload()` (clamd refuses an empty .hsb, so it is
//                   seeded with the hash of the 68-byte EICAR test file)
//
// API:
//   ensureClamav({ install })            -> { clamd }  (the binary's path; throws with the fix)
//   startClamd({ dir, port, host })      -> { host, port, pid, dir, dbDir, hashFile, reload(), stop() }
//   pingClamd(host, port, timeoutMs)     -> true when clamd answers PONG
// CLI (foreground; stops clamd on SIGINT/SIGTERM, and with --watch-stdin when stdin closes):
//   node scripts/lib/clamd.mjs [--dir .data/clamd] [--port 3310] [--host 127.0.0.1] [--watch-stdin]
//   prints one JSON line {"host","port","pid","dir"} once clamd answers PING.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, sleep } from './util.mjs';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/** The EICAR test string's marker and the name our .ndb gives it (clamd adds `.UNOFFICIAL`). */
export const EICAR_MARKER = 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE';
export const EICAR_SIGNATURE = 'Vault.Test.EICAR';
/** The standard 68-byte EICAR test file (seeds vault.hsb). */
export const EICAR_FILE = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

export const CLAMAV_PACKAGES = ['clamav', 'clamav-daemon'];
export const INSTALL_HINT = `apt-get install -y ${CLAMAV_PACKAGES.join(' ')}`;

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A binary on PATH or in the sbin folders (clamd lives in /usr/sbin, often not on a user's PATH). */
function findBinary(name) {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/**
 * Finds clamd. With `install: true` and root, installs Debian's packages when it is missing
 * (clamdscan, Debian's separate `clamdscan` package, is not needed: the worker speaks INSTREAM).
 */
export function ensureClamav({ install = false } = {}) {
  let clamd = findBinary('clamd');
  if (!clamd && install && process.getuid?.() === 0) {
    console.log(`[vault] installing ${CLAMAV_PACKAGES.join(' ')} from Debian...`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...CLAMAV_PACKAGES], {
      stdio: 'inherit',
      env,
    });
    clamd = findBinary('clamd');
  }
  if (!clamd) {
    throw new Error(
      `ClamAV's clamd is not installed. Install it with: ${INSTALL_HINT} (as root; or run scripts/ensure-tools.sh)`,
    );
  }
  return { clamd };
}

function hexOf(text) {
  return Buffer.from(text, 'latin1').toString('hex');
}

/** Writes the signature database into `dbDir`; an existing vault.hsb (with appended lines) is kept. */
export function writeSignatures(dbDir) {
  mkdirSync(dbDir, { recursive: true });
  writeFileSync(join(dbDir, 'vault-test.ndb'), `${EICAR_SIGNATURE}:0:*:${hexOf(EICAR_MARKER)}\n`);
  const hashFile = join(dbDir, 'vault.hsb');
  const seed = `${createHash('sha256').update(EICAR_FILE, 'latin1').digest('hex')}:${EICAR_FILE.length}:${EICAR_SIGNATURE}.File\n`;
  if (!existsSync(hashFile) || readFileSync(hashFile, 'utf8').trim() === '') writeFileSync(hashFile, seed);
  return { ndbFile: join(dbDir, 'vault-test.ndb'), hashFile };
}

/** clamd.conf for a private, foreground, TCP-only daemon whose files all live in `dir`. */
export function clamdConfig({ dir, host, port }) {
  return [
    '# Written by scripts/lib/clamd.mjs; rewritten on every start.',
    'Foreground yes',
    `TCPSocket ${port}`,
    `TCPAddr ${host}`,
    `DatabaseDirectory ${join(dir, 'db')}`,
    `PidFile ${join(dir, 'clamd.pid')}`,
    `LogFile ${join(dir, 'clamd.log')}`,
    'LogTime yes',
    `TemporaryDirectory ${join(dir, 'tmp')}`,
    // A file may be 100 MiB of plaintext, stored as ~100.03 MiB of ciphertext: every limit must
    // be above that, or clamd skips the rest of the stream and still answers OK.
    'StreamMaxLength 110M',
    'MaxFileSize 110M',
    'MaxScanSize 440M',
    'PCREMaxFileSize 110M',
    // Only our own signatures exist: answer in a second, never look for updates.
    'SelfCheck 0',
    '',
  ].join('\n');
}

/** Sends one z-command and resolves with the NUL-terminated answer (or rejects). */
function command(host, port, cmd, timeoutMs = 2000) {
  return new Promise((resolvePromise, reject) => {
    const socket = connect({ host, port });
    let reply = '';
    const finish = (error, value) => {
      socket.destroy();
      if (error) reject(error);
      else resolvePromise(value);
    };
    socket.setTimeout(timeoutMs, () => finish(new Error(`no answer within ${timeoutMs} ms`)));
    socket.once('connect', () => socket.write(`z${cmd}\0`));
    socket.on('data', (data) => {
      reply += data.toString('utf8');
      if (reply.includes('\0')) finish(undefined, reply.slice(0, reply.indexOf('\0')));
    });
    socket.once('end', () => finish(undefined, reply.replace(/\0$/, '')));
    socket.once('error', (error) => finish(error));
  });
}

export async function pingClamd(host, port, timeoutMs = 1000) {
  try {
    return (await command(host, port, 'PING', timeoutMs)).trim() === 'PONG';
  } catch {
    return false;
  }
}

export { freePort };

function tail(file, lines = 8) {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts a private clamd on `host:port` (a free port when none is given) with its config,
 * database, pid, log and temp files under `dir`, and resolves once it answers PING.
 */
export async function startClamd({
  dir = join(ROOT, '.data', 'clamd'),
  port,
  host = '127.0.0.1',
  readyTimeoutMs = 30000,
} = {}) {
  const { clamd } = ensureClamav();
  const base = isAbsolute(dir) ? dir : resolve(ROOT, dir);
  const listenPort = port ?? (await freePort(host));
  const dbDir = join(base, 'db');
  mkdirSync(join(base, 'tmp'), { recursive: true });
  const { hashFile } = writeSignatures(dbDir);
  const confFile = join(base, 'clamd.conf');
  writeFileSync(confFile, clamdConfig({ dir: base, host, port: listenPort }));
  const logFile = join(base, 'clamd.log');

  if (await pingClamd(host, listenPort, 500)) {
    throw new Error(`Something already answers clamd's PING on ${host}:${listenPort}; choose another port`);
  }

  const child = spawn(clamd, ['-c', confFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (data) => {
    output = (output + data.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = null;
  const exit = new Promise((r) => child.once('exit', (code, signal) => r((exited = signal ?? code))));
  child.once('error', (error) => {
    exited = error.message;
  });

  const until = Date.now() + readyTimeoutMs;
  while (!(await pingClamd(host, listenPort, 500))) {
    if (exited !== null || Date.now() > until) {
      if (exited === null) child.kill('SIGKILL');
      const why = exited === null ? `no PONG within ${readyTimeoutMs} ms` : `clamd exited (${exited})`;
      throw new Error(
        `clamd did not start on ${host}:${listenPort}: ${why}\n${output.trim() || tail(logFile)}`,
      );
    }
    await sleep(100);
  }

  return {
    host,
    port: listenPort,
    pid: child.pid,
    dir: base,
    dbDir,
    hashFile,
    /** Resolves with the exit code or signal once clamd has exited. */
    exited: exit,
    /** Re-reads the database (after lines were appended to vault.hsb). */
    reload: () => command(host, listenPort, 'RELOAD', 5000),
    /** SIGTERM, then SIGKILL after `graceMs`; resolves when clamd has exited. */
    async stop(graceMs = 5000) {
      if (exited !== null) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.kill('SIGTERM');
      await exit;
      clearTimeout(timer);
    },
  };
}

function argValue(args, name) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function cli(args) {
  const port = argValue(args, '--port');
  let handle;
  try {
    handle = await startClamd({
      dir: argValue(args, '--dir'),
      port: port === undefined ? undefined : Number(port),
      host: argValue(args, '--host'),
    });
  } catch (error) {
    console.error(`[clamd] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  let stopping = false;
  const stop = async () => {
    stopping = true;
    await handle.stop();
    process.exit(0);
  };
  void handle.exited.then((how) => {
    if (stopping) return;
    console.error(`[clamd] clamd exited (${how})`);
    process.exit(1);
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (args.includes('--watch-stdin')) {
    // The parent (a test) went away: take clamd with us.
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    process.stdin.resume();
  }
  console.log(JSON.stringify({ host: handle.host, port: handle.port, pid: handle.pid, dir: handle.dir }));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await cli(process.argv.slice(2));
}
