#!/usr/bin/env node
// The compose-env tier (issue 16): every service of ours boots with exactly the environment
// docker-compose.yml gives it (rendered by `docker-compose config`, hosts mapped to this machine by
// scripts/lib/compose-env.mjs, every change printed), runs its migrations the way compose's
// one-off services do, and the stack passes the API smoke (apps/e2e/compose). No Docker engine
// runs here: this is how far the compose file's settings are proved without one.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import YAML from 'yaml';
import { mapComposeEnv } from './lib/compose-env.mjs';
import { dropDatabase, dropRedisPrefix } from './lib/ephemeral.mjs';
import { ensurePostgres, ensureRedis } from './lib/services.mjs';
import { ensureScanner, waitHealthy } from './lib/stack.mjs';
import { ROOT, buildAll, ensureDependencies, freePort, log, runStatus, tcpOpen } from './lib/util.mjs';

const id = randomBytes(4).toString('hex');
const dataDir = join(ROOT, '.data', `compose-env-${id}`);
const baseDb = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vault');
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const cleanups = [];

/** docker-compose.yml as compose renders it, with no .env and no variable of this shell: the defaults. */
function renderCompose() {
  const res = spawnSync('docker-compose', ['-f', join(ROOT, 'docker-compose.yml'), 'config'], {
    cwd: ROOT,
    encoding: 'utf8',
    // The passwords .env must set (compose has no default); they are replaced by the stand-ins' below.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      POSTGRES_PASSWORD: 'compose-env',
      S3_ACCESS_KEY: 'compose-env',
      S3_SECRET_KEY: 'compose-env',
    },
  });
  if (res.status !== 0) throw new Error(`docker-compose config failed: ${res.stderr || res.error?.message}`);
  return YAML.parse(res.stdout);
}

/** A throw-away SMTP server standing in for Mailpit: it takes every message and keeps none. */
async function startSmtp() {
  const server = createServer((socket) => {
    let data = false;
    socket.write('220 compose-env ESMTP\r\n');
    socket.on('error', () => undefined);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      let at;
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (data) {
          if (line === '.') {
            data = false;
            socket.write('250 queued\r\n');
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 compose-env\r\n');
        else if (verb === 'DATA') {
          data = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

function spawnLogged(label, args, env, logDir) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Exactly the mapped environment: only PATH besides it, so nothing of this shell leaks in.
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks = [];
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (c) => chunks.push(c));
  child.on('close', () => {
    mkdirSync(logDir, { recursive: true });
    writeFileSync(join(logDir, `${label}.log`), Buffer.concat(chunks));
  });
  return { child, output: () => Buffer.concat(chunks).toString('utf8') };
}

async function main() {
  ensureDependencies();
  if (process.env.VAULT_SKIP_BUILD !== '1') buildAll();
  await ensurePostgres(baseDb.toString());
  await ensureRedis(redisUrl);
  const compose = renderCompose();

  // The stand-ins for compose's own services, and the keys compose's keygen would make (the same script).
  const { startS3rver } = await import('@vault/storage/testing');
  const storage = compose.services.files.environment;
  const s3 = await startS3rver({ bucket: storage.S3_BUCKET });
  cleanups.push(() => s3.close());
  const scannerEnv = {};
  const clamd = await ensureScanner(scannerEnv, { dir: join(dataDir, 'clamd'), port: await freePort() });
  cleanups.push(() => clamd.stop());
  const smtp = await startSmtp();
  cleanups.push(() => smtp.close());
  const keys = join(dataDir, 'keys');
  const keygen = spawnSync(process.execPath, [join(ROOT, 'infra', 'keygen.mjs'), keys], { encoding: 'utf8' });
  if (keygen.status !== 0) throw new Error(`keygen failed: ${keygen.stderr}`);

  const dbName = `vault_compose_${id}`;
  const db = new URL(baseDb);
  db.pathname = `/${dbName}`;
  const { default: pg } = await import('pg');
  const maintenance = new URL(baseDb);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  await admin.end();
  cleanups.push(() => dropDatabase(db.toString()));
  const prefix = `vault-compose-${id}:`;
  cleanups.push(() => dropRedisPrefix(redisUrl, prefix));

  const s3Url = new URL(s3.endpoint);
  const redis = new URL(redisUrl);
  const { services } = await mapComposeEnv(compose, {
    standIns: {
      'postgres:5432': { host: baseDb.hostname, port: baseDb.port || '5432' },
      'redis:6379': { host: redis.hostname, port: redis.port || '6379' },
      'minio:9000': { host: s3Url.hostname, port: s3Url.port },
      // The published MinIO API browsers use (S3_PUBLIC_ENDPOINT).
      'localhost:9000': { host: s3Url.hostname, port: s3Url.port },
      'clamav:3310': { host: scannerEnv.CLAMD_HOST ?? '127.0.0.1', port: scannerEnv.CLAMD_PORT ?? '3310' },
      'mailpit:1025': { host: '127.0.0.1', port: String(smtp.port) },
    },
    freePort: () => freePort(),
    paths: {
      '/keys': keys,
      '/data/files': join(dataDir, 'files'),
      '/var/lib/clamav': scannerEnv.CLAMD_DATABASE_DIR ?? join(dataDir, 'clamd'),
    },
    replace: {
      // The local Postgres's user and a database of this run for compose's vault:<password>@.../vault.
      DATABASE_URL: (url) => {
        const u = new URL(url);
        u.username = db.username;
        u.password = db.password;
        u.pathname = db.pathname;
        return u.toString();
      },
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      REDIS_PREFIX: prefix,
    },
  });

  log('compose environment, mapped onto this machine (everything else exactly as compose sets it):');
  for (const s of services)
    for (const c of s.changes)
      log(`  ${s.svc}: ${c.name} ${shown(c.name, c.from)} -> ${shown(c.name, c.to)}`);

  const logDir = join(dataDir, 'logs');
  // The one-off migrations, as compose runs them before the services.
  for (const job of services.filter((s) => !s.server && s.command?.some((a) => a.includes('migrate')))) {
    const { child, output } = spawnLogged(job.svc, job.command.slice(1), job.env, logDir);
    const code = await new Promise((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`${job.svc} failed (exit ${code}):\n${output()}`);
    log(`${job.svc}: done`);
  }
  // The node services; the web tier (nginx) after them, in front of the gateway.
  const servers = services.filter((s) => s.server && s.app !== 'web');
  const running = servers.map((s) => ({
    s,
    ...spawnLogged(s.svc, [`apps/${s.app}/dist/main.js`], s.env, logDir),
  }));
  cleanups.push(() => Promise.all(running.map(({ child }) => stop(child))));
  const gateway = servers.find((s) => s.app === 'gateway');
  const gatewayUrl = `http://127.0.0.1:${gateway.env.GATEWAY_PORT}`;
  try {
    await waitHealthy(gatewayUrl, 60000);
  } catch (error) {
    for (const { s, output } of running) log(`--- ${s.svc}\n${output().slice(-3000)}`);
    throw error;
  }
  // Every probe listener compose's healthchecks ask answers ready.
  for (const s of servers.filter((x) => x.env.HEALTH_PORT)) {
    const res = await fetch(`http://127.0.0.1:${s.env.HEALTH_PORT}/health/ready`);
    if (res.status !== 200) throw new Error(`${s.svc}: /health/ready answered ${res.status}`);
    log(`${s.svc}: ready on its probe listener (compose's healthcheck)`);
  }
  const web = services.find((s) => s.app === 'web' && s.server);
  const nginx = await startWeb(web, join(dataDir, 'web'));
  cleanups.push(() => nginx.stop());
  const baseUrl = nginx.url;
  await waitHealthy(baseUrl, 20000);
  log(`the stack runs on compose's environment; browsers' way in, nginx (web): ${baseUrl}`);

  const status = await runStatus(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
      '--selectProjects',
      'e2e-compose',
      '--runInBand',
      ...process.argv.slice(2),
    ],
    { env: { ...process.env, VAULT_E2E_BASE_URL: baseUrl } },
  );
  const crashed = running.filter(({ child }) => child.exitCode !== null);
  for (const { s } of crashed) log(`${s.svc} exited during the run`);
  return status === 0 && crashed.length === 0 ? 0 : 1;
}

/**
 * The web service as its image starts it: render.sh renders nginx's configuration from the
 * service's (mapped) environment, then nginx runs it. The image's web root is this checkout's
 * built app; the rendered files go to `dir` (the image's /tmp).
 */
async function startWeb(web, dir) {
  const env = { ...web.env, WEB_ROOT: join(ROOT, 'apps', 'web', 'dist'), WEB_RUNTIME_DIR: dir };
  log(
    `  web: WEB_ROOT (the image's /usr/share/nginx/html) -> ${env.WEB_ROOT}; WEB_RUNTIME_DIR (its /tmp) -> ${dir}`,
  );
  const rendered = spawnSync('sh', [join(ROOT, 'infra', 'web', 'render.sh')], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  });
  if (rendered.status !== 0) throw new Error(`render.sh: ${rendered.stderr}`);
  const nginx = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  const child = spawn(nginx, ['-e', 'stderr', '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (c) => (errors += c));
  const until = Date.now() + 10_000;
  while (!(await tcpOpen('127.0.0.1', Number(env.LISTEN_PORT), 300))) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`nginx did not start: ${errors}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${env.LISTEN_PORT}`, stop: () => stop(child, 'SIGQUIT') };
}

/** A value as the log may show it: credentials never (a URL's password is masked). */
function shown(name, value) {
  if (value === undefined) return '(unset)';
  if (/SECRET|PASSWORD|ACCESS_KEY/.test(name)) return '(a credential)';
  return String(value).replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function stop(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  for (const cleanup of cleanups.reverse())
    await Promise.resolve(cleanup()).catch((e) => log(`cleanup: ${e.message}`));
  if (code === 0) rmSync(dataDir, { recursive: true, force: true });
  else log(`logs kept in ${join(dataDir, 'logs')}`);
}
console.log(`compose-env: ${code === 0 ? 'passed' : 'FAILED'}`);
process.exit(code);
