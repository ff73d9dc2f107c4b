// Makes sure PostgreSQL and Redis answer; starts the machine's own servers when they don't
// (docs/operations.md "Toolchain on the test machines"). Never installs them: that is the machine's job.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { hostPort, log, sleep, tcpOpen } from './util.mjs';

async function waitOpen(host, port, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await tcpOpen(host, port)) return true;
    await sleep(250);
  }
  return false;
}

function isLocal(host) {
  return ['127.0.0.1', 'localhost', '::1'].includes(host);
}

export async function ensurePostgres(databaseUrl) {
  const { host, port } = hostPort(databaseUrl, 5432);
  if (await tcpOpen(host, port)) return;
  if (isLocal(host) && existsSync('/etc/postgresql')) {
    const versions = readdirSync('/etc/postgresql');
    for (const v of versions) {
      log(`PostgreSQL is not answering on ${host}:${port}; starting cluster ${v}/main`);
      spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start'], { stdio: 'inherit' });
    }
    if (await waitOpen(host, port, 15000)) return;
  }
  throw new Error(
    `PostgreSQL is not reachable at ${host}:${port}. Start it, or set DATABASE_URL to a running server.`,
  );
}

export async function ensureRedis(redisUrl) {
  const { host, port } = hostPort(redisUrl, 6379);
  if (await tcpOpen(host, port)) return;
  if (isLocal(host)) {
    log(`Redis is not answering on ${host}:${port}; starting redis-server`);
    spawnSync(
      'redis-server',
      [
        '--daemonize',
        'yes',
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'inherit' },
    );
    if (await waitOpen(host, port, 10000)) return;
  }
  throw new Error(
    `Redis is not reachable at ${host}:${port}. Start it, or set REDIS_URL to a running server.`,
  );
}

/** NATS carries RPC in Kubernetes; the e2e suite runs over it too. */
export async function ensureNats(natsUrl) {
  const { host, port } = hostPort(natsUrl, 4222);
  if (await tcpOpen(host, port)) return;
  if (isLocal(host) && existsSync('/usr/sbin/nats-server')) {
    log(`NATS is not answering on ${host}:${port}; starting nats-server`);
    spawnSync(
      'start-stop-daemon',
      [
        '--start',
        '--oknodo',
        '--background',
        '--exec',
        '/usr/sbin/nats-server',
        '--',
        '-a',
        host,
        '-p',
        String(port),
        '-js',
      ],
      { stdio: 'inherit' },
    );
    if (await waitOpen(host, port, 10000)) return;
  }
  throw new Error(`NATS is not reachable at ${host}:${port}. Start it, or set NATS_URL to a running server.`);
}
