// Helpers for the repo's scripts. Only Node built-ins: these run before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const colors = [36, 35, 33, 32, 34, 91, 96, 95];
export const paint = (code, text) => (process.stdout.isTTY ? `\x1b[${code}m${text}\x1b[0m` : text);
export const colorFor = (i) => colors[i % colors.length];

export function log(msg) {
  console.log(`${paint(90, '[vault]')} ${msg}`);
}

/** Runs a command to completion, inheriting output; throws on failure. */
export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (res.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${res.status ?? res.signal})`);
  }
}

/** Like run(), but resolves with the exit code instead of throwing (used by the test runner). */
export function runStatus(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

export function tcpOpen(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A TCP port free on `host` right now (the OS picks it; nothing holds it afterwards). */
export async function freePort(host = '127.0.0.1') {
  const { ports, release } = await reservePorts(1, host);
  await release();
  return ports[0];
}

/**
 * `count` TCP ports on `host`, held open until `release()`: servers the stack starts meanwhile on
 * port 0 (the storage stand-ins) cannot be given one of them, as they could with freePort().
 */
export async function reservePorts(count, host = '127.0.0.1') {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolvePromise, reject) => {
          const server = createServer();
          server.unref();
          server.on('error', reject);
          server.listen(0, host, () => resolvePromise(server));
        }),
    ),
  );
  return {
    ports: servers.map((server) => server.address().port),
    release: () => Promise.all(servers.map((server) => new Promise((done) => server.close(() => done())))),
  };
}

/**
 * Installs dependencies when node_modules is missing or was installed from another lockfile
 * (tracked by the lockfile's hash, so clones and checkouts with fresh mtimes don't reinstall).
 */
export function ensureDependencies() {
  const lockPath = join(ROOT, 'package-lock.json');
  const stamp = join(ROOT, 'node_modules', '.vault-lock-hash');
  const lock = readFileSync(lockPath);
  const hash = createHash('sha256').update(lock).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  log('installing dependencies (npm ci, about a minute)...');
  // Warnings (an engine range a transitive package declares, deprecations) are not the user's to
  // act on; errors still print, and a lockfile npm ci refuses is a bug to fix, not to work around.
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (ci.status !== 0) throw new Error(`npm ci failed (exit ${ci.status}): see the errors above`);
  writeFileSync(stamp, hash);
}

/** Compiles every project: services and libs (TypeScript project references), then the web app (Vite). */
export function buildAll() {
  log('building services (tsc -b)...');
  run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.json']);
  log('building the web app (vite build)...');
  run(process.execPath, [
    join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
    'build',
    'apps/web',
    '--logLevel',
    'warn',
  ]);
}

/** Parses host and port out of a postgres:// or redis:// URL. */
export function hostPort(url, defaultPort) {
  const u = new URL(url);
  return { host: u.hostname || '127.0.0.1', port: Number(u.port || defaultPort) };
}
