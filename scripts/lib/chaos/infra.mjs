// Private PostgreSQL, Redis and NATS servers for the chaos tier (scripts/chaos-e2e.mjs): each on a
// free port with its data in a temp folder, so that stopping and restarting them never touches the
// machine's shared servers, which the other tiers (and other runs) use at the same time.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep, tcpOpen } from '../util.mjs';

async function waitPort(port, open, ms, what) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if ((await tcpOpen('127.0.0.1', port, 500)) === open) return;
    await sleep(100);
  }
  throw new Error(`${what} did not ${open ? 'start listening' : 'stop'} on port ${port} within ${ms} ms`);
}

/** The newest PostgreSQL server binaries (/usr/lib/postgresql/<version>/bin, Debian's layout). */
function postgresBin() {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no PostgreSQL server binaries under ${base}`);
  return join(base, versions[0], 'bin');
}

/**
 * A throw-away PostgreSQL cluster (initdb + pg_ctl) on a free port. initdb refuses to run as root:
 * as root, the cluster belongs to the `postgres` user and its commands run through runuser.
 */
export async function startPostgres() {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'vault-chaos-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(ids.stdout), Number(gid.stdout));
  }
  const as = (cmd, args) => (asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);
  const pgctl = (args) => {
    const [cmd, argv] = as(join(bin, 'pg_ctl'), args);
    const res = spawnSync(cmd, argv, { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`pg_ctl ${args[0]} failed: ${res.stderr || res.stdout}`);
  };
  const data = join(dir, 'data');
  const [initCmd, initArgs] = as(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  // Durability is not under test here (the server is stopped cleanly, or its connections cut).
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = async () => {
    pgctl(['start', '-D', data, '-w', '-t', '60', '-l', join(dir, 'postgres.log'), '-o', options]);
    await waitPort(port, true, 30_000, 'PostgreSQL');
  };
  await start();
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}`,
    /** Stops the server (fast: open connections are cut, as in a restart by an operator). */
    async stop() {
      pgctl(['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
      await waitPort(port, false, 30_000, 'PostgreSQL');
    },
    start,
    async close() {
      try {
        pgctl(['stop', '-D', data, '-m', 'immediate', '-w', '-t', '30']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A server process on a fixed port that can be stopped and started again: `args(port)` builds its
 * command line. `stop` is SIGTERM (the server's own clean shutdown), `kill` SIGKILL.
 */
async function startRestartable(what, cmd, args) {
  const port = await freePort();
  let child;
  let output = '';
  const start = async () => {
    child = spawn(cmd, args(port), { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d) => (output = (output + d.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    try {
      await waitPort(port, true, 15_000, what);
    } catch (error) {
      throw new Error(`${error.message}\n${output}`);
    }
  };
  const halt = async (signal) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
    await waitPort(port, false, 15_000, what);
  };
  await start();
  return {
    port,
    start,
    stop: () => halt('SIGTERM'),
    kill: () => halt('SIGKILL'),
    close: () => halt('SIGKILL'),
  };
}

/** A Redis that keeps nothing on disk (as the machine's and local mode's): a restart empties it. */
export async function startRedis() {
  const server = await startRestartable('Redis', 'redis-server', (port) => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    tmpdir(),
  ]);
  return { ...server, url: `redis://127.0.0.1:${server.port}` };
}

/** A NATS server (the Kubernetes transport); its default max_payload (1 MiB) is plenty for small notes. */
export async function startNats() {
  const bin = existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server';
  const server = await startRestartable('NATS', bin, (port) => ['-a', '127.0.0.1', '-p', String(port)]);
  return { ...server, url: `nats://127.0.0.1:${server.port}` };
}
