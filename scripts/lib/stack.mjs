// Local mode (docs/architecture.md "Where it runs"): build, create the database,
// migrate, make dev keys, then run every service as its own process with prefixed logs.
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ensurePostgres, ensureRedis } from './services.mjs';
import { ROOT, buildAll, colorFor, ensureDependencies, log, paint, run, sleep } from './util.mjs';

/**
 * Every service, in start order. `migrate` is the service's one-off migration command; `env` adds
 * to the stack's environment for that service alone (as compose and Kubernetes set it).
 */
export const SERVICES = [
  { name: 'auth', main: 'apps/auth/dist/main.js', migrate: 'apps/auth/dist/migrate.js' },
  { name: 'notes', main: 'apps/notes/dist/main.js', migrate: 'apps/notes/dist/migrate.js' },
  { name: 'files', main: 'apps/files/dist/main.js', migrate: 'apps/files/dist/migrate.js' },
  { name: 'admin', main: 'apps/admin/dist/main.js', migrate: 'apps/admin/dist/migrate.js' },
  // Two malloc arenas: the worker's native memory stays flat under long load (docs/operations.md "Memory").
  { name: 'scan', main: 'apps/scan-worker/dist/main.js', env: { MALLOC_ARENA_MAX: '2' } },
  { name: 'gateway', main: 'apps/gateway/dist/main.js' },
];

/** Development keys under .data/keys: made once, never committed. */
export function ensureDevKeys(dataDir) {
  const dir = join(dataDir, 'keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const priv = join(dir, 'jwt-private.pem');
  const pub = join(dir, 'jwt-public.pem');
  const secret = join(dir, 'server-secret');
  const filesUrlSecret = join(dir, 'storage-signing-secret');
  if (!existsSync(priv) || !existsSync(pub)) {
    log('generating development JWT signing keys (Ed25519) in .data/keys');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519', {
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    writeFileSync(priv, privateKey, { mode: 0o600 });
    writeFileSync(pub, publicKey, { mode: 0o644 });
  }
  if (!existsSync(secret)) {
    writeFileSync(secret, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  if (!existsSync(filesUrlSecret)) {
    writeFileSync(filesUrlSecret, randomBytes(48).toString('base64url'), { mode: 0o600 });
  }
  chmodSync(priv, 0o600);
  return {
    JWT_PRIVATE_KEY_FILE: priv,
    JWT_PUBLIC_KEY_FILE: pub,
    SERVER_SECRET_FILE: secret,
    STORAGE_SIGNING_SECRET_FILE: filesUrlSecret,
  };
}

/** The local-mode environment; anything already set in `overrides` or process.env wins. */
export function localEnv(overrides = {}) {
  const dataDir = overrides.VAULT_DATA_DIR ?? process.env.VAULT_DATA_DIR ?? join(ROOT, '.data');
  const webRoot = join(ROOT, 'apps', 'web', 'dist');
  const defaults = {
    NODE_ENV: 'development',
    DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/vault',
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: 'vault:',
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_PORT: '8080',
    AUTH_RPC_HOST: '127.0.0.1',
    AUTH_RPC_PORT: '4001',
    NOTES_RPC_HOST: '127.0.0.1',
    NOTES_RPC_PORT: '4002',
    FILES_RPC_HOST: '127.0.0.1',
    FILES_RPC_PORT: '4003',
    FILES_HTTP_HOST: '127.0.0.1',
    FILES_HTTP_PORT: '4013',
    ADMIN_RPC_HOST: '127.0.0.1',
    ADMIN_RPC_PORT: '4004',
    // Encrypted file objects of the local driver (ciphertext only).
    STORAGE_LOCAL_ROOT: join(dataDir, 'files'),
    LOG_LEVEL: 'info',
    VAULT_DATA_DIR: dataDir,
    // Built by prepare(); until then the gateway shows its placeholder page.
    WEB_ROOT: webRoot,
  };
  const env = { ...defaults, ...pick(process.env, Object.keys(defaults)), ...overrides };
  // The gateway streams blob requests to the files service's HTTP listener.
  env.FILES_HTTP_URL ??= `http://${env.FILES_HTTP_HOST}:${env.FILES_HTTP_PORT}`;
  return { ...env, ...ensureDevKeysIfUnset(env) };
}

function pick(source, keys) {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}

function ensureDevKeysIfUnset(env) {
  const keys = ensureDevKeys(env.VAULT_DATA_DIR);
  const out = {};
  for (const [name, file] of Object.entries(keys)) {
    const base = name.replace(/_FILE$/, '');
    if (!env[name] && !env[base] && !process.env[name] && !process.env[base]) out[name] = file;
  }
  return out;
}

/** Install (when needed), build, check Postgres/Redis, migrate. */
export async function prepare(env, { build = true } = {}) {
  ensureDependencies();
  if (build) buildAll();
  await ensurePostgres(env.DATABASE_URL);
  await ensureRedis(env.REDIS_URL);
  for (const svc of SERVICES.filter((s) => s.migrate)) {
    log(`migrating ${svc.name}...`);
    run(process.execPath, [svc.migrate], { env: { ...process.env, ...env } });
  }
}

/** How the runner restarts a service that exits without being asked (startServices' `restart`). */
export const RESTART_POLICY = {
  /** The wait before the first restart; it doubles with each failure in a row, up to `maxDelayMs`. */
  firstDelayMs: 500,
  maxDelayMs: 30_000,
  /** A run at least this long counts as a success: the wait and the failure count start over. */
  stableMs: 30_000,
  /** This many failures in a row (each run shorter than `stableMs`): the runner gives up on it. */
  maxFailures: 5,
};

/** The preload that ends a service when its runner dies (see scripts/lib/runner-watch.cjs). */
const RUNNER_WATCH = join(ROOT, 'scripts', 'lib', 'runner-watch.cjs');

/**
 * Starts every service as a child process. Output lines are prefixed with the service name; with
 * `logDir`, each service's raw output also goes to `<logDir>/<name>.log`.
 *
 * A service that exits without being asked is a crash: `onCrash(fn)` hears of each one
 * (`fn(name, {code, signal, restart, delayMs})`), and with `restart` (the default) the runner
 * starts it again after a wait that doubles from 0.5 s to 30 s (RESTART_POLICY), saying so in its
 * log, while the others keep running, as compose's restart policy and Kubernetes do. After
 * `maxFailures` quick failures in a row it gives up on that service: `onGiveUp(fn)` hears of it.
 * Every service gets the write end of a pipe from the runner (runner-watch.cjs): when the runner
 * dies, even by SIGKILL, its services end with it.
 *
 * `stopService(name)` and `startService(name)` stop one service on purpose (not a crash) and spawn
 * it again the same way, its log file appended to. `pids()` maps each service to its process id.
 */
export function startServices(
  env,
  { logDir, quiet = false, restart = true, policy = {}, services: list = SERVICES, say = log } = {},
) {
  if (logDir) mkdirSync(logDir, { recursive: true });
  const rules = { ...RESTART_POLICY, ...policy };
  // One record per service: its current child, whether its stop was asked for, its restarts.
  const services = list.map((svc, i) => ({
    svc,
    color: colorFor(i),
    child: undefined,
    held: false,
    startedAt: 0,
    failures: 0,
    restarts: 0,
    timer: undefined,
  }));
  let stopping = false;
  const crashListeners = [];
  const giveUpListeners = [];

  function spawnService(entry) {
    const { svc } = entry;
    const child = spawn(process.execPath, ['--require', RUNNER_WATCH, svc.main], {
      cwd: ROOT,
      env: { ...process.env, ...env, ...svc.env, VAULT_RUNNER_PIPE_FD: '3' },
      // fd 3: a pipe only the runner writes to; its end tells the service the runner is gone.
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const file = logDir ? createWriteStream(join(logDir, `${svc.name}.log`), { flags: 'a' }) : undefined;
    const prefix = paint(entry.color, `[${svc.name.padEnd(7)}]`);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        file?.write(`${line}\n`);
        if (!quiet) console.log(`${prefix} ${line}`);
      });
    }
    // 'close' comes after the last output line (that may follow 'exit'): no write after end.
    child.on('close', () => file?.end());
    child.on('exit', (code, signal) => {
      if (stopping || entry.held || entry.child !== child) return;
      onUnexpectedExit(entry, code, signal);
    });
    entry.held = false;
    entry.child = child;
    entry.startedAt = Date.now();
  }

  function onUnexpectedExit(entry, code, signal) {
    const { name } = entry.svc;
    const how = signal ?? `code ${code}`;
    // A run that lasted: whatever failed before is forgotten (the backoff starts over).
    if (Date.now() - entry.startedAt >= rules.stableMs) entry.failures = 0;
    entry.failures += 1;
    if (!restart) {
      say(`${name} exited unexpectedly (${how})`);
      for (const fn of crashListeners) fn(name, { code, signal, restart: 0, delayMs: undefined });
      return;
    }
    if (entry.failures >= rules.maxFailures) {
      const reason =
        `${name} exited unexpectedly (${how}) ${entry.failures} times in a row, each within ` +
        `${formatSeconds(rules.stableMs)} of starting; not restarting it again (its last lines say why)`;
      say(paint(31, reason));
      for (const fn of crashListeners) fn(name, { code, signal, restart: 0, delayMs: undefined });
      for (const fn of giveUpListeners) fn(name, reason);
      return;
    }
    const delayMs = Math.min(rules.firstDelayMs * 2 ** (entry.failures - 1), rules.maxDelayMs);
    entry.restarts += 1;
    const restartNo = entry.restarts;
    say(
      paint(
        33,
        `${name} exited unexpectedly (${how}); restarting in ${formatSeconds(delayMs)} (restart ${restartNo})`,
      ),
    );
    for (const fn of crashListeners) fn(name, { code, signal, restart: restartNo, delayMs });
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (stopping || entry.held || isRunning(entry.child)) return;
      spawnService(entry);
      say(`${name} started again (pid ${entry.child.pid}, restart ${restartNo})`);
    }, delayMs);
  }

  function entryOf(name) {
    const entry = services.find((s) => s.svc.name === name);
    if (!entry) throw new Error(`no service named ${name}`);
    return entry;
  }

  function cancelRestart(entry) {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = undefined;
  }

  services.forEach(spawnService);

  return {
    /** `fn(name, {code, signal, restart, delayMs})` on every unexpected exit (restart 0: none follows). */
    onCrash(fn) {
      crashListeners.push(fn);
    },
    /** `fn(name, reason)` when the runner stops restarting a service that keeps failing. */
    onGiveUp(fn) {
      giveUpListeners.push(fn);
    },
    /** Each service's current process id (undefined while it is down). */
    pids() {
      return Object.fromEntries(
        services.map((e) => [e.svc.name, e.child && isRunning(e.child) ? e.child.pid : undefined]),
      );
    },
    /** How many times the runner has restarted each service. */
    restarts() {
      return Object.fromEntries(services.map((e) => [e.svc.name, e.restarts]));
    },
    /** Stops one service on purpose: SIGTERM, then SIGKILL after a grace period. */
    async stopService(name, graceMs = 10000) {
      const entry = entryOf(name);
      entry.held = true;
      cancelRestart(entry);
      await terminate(entry.child, graceMs);
    },
    /** Spawns a service stopped by stopService (or given up on) again; a running one is left as it is. */
    startService(name) {
      const entry = entryOf(name);
      if (stopping) throw new Error('the stack is stopping');
      if (isRunning(entry.child)) return;
      cancelRestart(entry);
      entry.failures = 0;
      spawnService(entry);
    },
    /** Stops services in reverse order: SIGTERM, then SIGKILL after a grace period. */
    async stop(graceMs = 10000) {
      stopping = true;
      services.forEach(cancelRestart);
      await Promise.all(services.toReversed().map(({ child }) => terminate(child, graceMs)));
    },
  };
}

/** `1500` → `1.5 s`. */
function formatSeconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child has exited. */
function terminate(child, graceMs) {
  if (!child || !isRunning(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * The scan worker's clamd (docs/architecture.md "Virus scanning of end-to-end encrypted files":
 * clamd is used if one answers): one already listening on CLAMD_PORT is used; otherwise a private
 * one is started with our own small signature database (scripts/lib/clamd.mjs). Without ClamAV
 * installed, the stack still runs and scans end in 'error' ("Virus scanner unavailable"), which
 * the file badge says plainly.
 */
export async function ensureScanner(env, { dir, port } = {}) {
  const { ensureClamav, pingClamd, startClamd } = await import('./clamd.mjs');
  const host = env.CLAMD_HOST ?? '127.0.0.1';
  if (!port && (await pingClamd(host, Number(env.CLAMD_PORT ?? 3310)))) return { stop: async () => {} };
  try {
    ensureClamav();
    const clamd = await startClamd({
      dir: dir ?? join(env.VAULT_DATA_DIR, 'clamd'),
      host,
      ...(port ? { port } : { port: Number(env.CLAMD_PORT ?? 3310) }),
    });
    env.CLAMD_HOST = clamd.host;
    env.CLAMD_PORT = String(clamd.port);
    // The scan worker reads the same hash signatures for the opt-in plaintext fingerprints.
    env.CLAMD_DATABASE_DIR ??= clamd.dbDir;
    log(`clamd listening on ${clamd.host}:${clamd.port}`);
    endWithRunner(clamd.pid);
    return clamd;
  } catch (error) {
    log(`no virus scanner: ${error instanceof Error ? error.message : error}`);
    return { stop: async () => {} };
  }
}

/**
 * Ends `pid` (clamd: no Node preload runs in it) when this process dies, however it dies: a small
 * watcher holds a pipe from us and sends SIGTERM once the pipe ends. Never keeps us alive.
 */
function endWithRunner(pid) {
  const watcher = spawn(
    process.execPath,
    [
      '-e',
      `process.stdin.on('close', () => { try { process.kill(${pid}, 'SIGTERM'); } catch {} });` +
        'process.stdin.resume();',
    ],
    { stdio: ['pipe', 'ignore', 'ignore'] },
  );
  watcher.unref();
  watcher.stdin.unref();
}

/**
 * Polls GET /api/health until it answers 200, or with `service`, until its report says that
 * service is ok (a service the report does not list, such as admin or scan: until it answers 200).
 */
export async function waitHealthy(baseUrl, timeoutMs = 90000, { service } = {}) {
  const until = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < until) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      const text = await res.text();
      const state = service ? JSON.parse(text)?.services?.[service] : undefined;
      if (state === 'ok' || (state === undefined && res.status === 200)) return;
      last = `${res.status} ${text}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await sleep(300);
  }
  const what = service ? `${service} did not come up` : 'the stack did not become healthy';
  throw new Error(`${what} at ${baseUrl} (last answer: ${last})`);
}
