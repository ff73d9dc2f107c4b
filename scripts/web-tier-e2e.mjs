#!/usr/bin/env node
// The web tier for real (issue 16): a private stack in local mode with Debian's nginx in front,
// configured by infra/web/render.sh as the image configures itself. `nginx -t` first (and once on
// a planted mistake, which it must refuse), then through nginx: the browser smoke and
// web-tier-ui.mjs (sign up, a note, files uploaded and downloaded), and each kind of answer's
// headers and caching, compared with what the gateway itself sends (docs/operations.md "The web tier").
//
//   node scripts/web-tier-e2e.mjs            (VAULT_SKIP_BUILD=1 to reuse the last build)
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  cpSync,
  createWriteStream,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createAccount } from '@vault/crypto';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { waitHealthy } from './lib/stack.mjs';
import { tierChecks } from './lib/tier-checks.mjs';
import { ROOT, freePort, log, runStatus, sleep, tcpOpen } from './lib/util.mjs';

const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const WEB_ROOT = join(ROOT, 'apps', 'web', 'dist');
const specs = ['apps/e2e/browser/web-smoke.mjs', 'apps/e2e/browser/web-tier-ui.mjs'];
// Not the defaults, so that /env-config.js shows it was rendered from this environment.
const INACTIVITY = { WEB_INACTIVITY_TIMEOUT_MS: '540000', WEB_INACTIVITY_WARNING_MS: '45000' };
/** What nginx logs when it holds a body or an answer in a temp file instead of streaming it. */
const BUFFERED = /buffered to a temporary file/;

/** One HTTP request with node:http (raw bytes, no decompression; optionally from another local address). */
function raw(url, { method = 'GET', headers = {}, body, localAddress } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, localAddress, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Renders the configuration with render.sh into `dir`; throws with its message when it refuses. */
function renderInto(dir, env) {
  const res = spawnSync('sh', [join(ROOT, 'infra', 'web', 'render.sh')], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, WEB_RUNTIME_DIR: dir, WEB_ROOT, ...env },
  });
  if (res.status !== 0) throw new Error(`render.sh: ${res.stderr}`);
  log(res.stdout.trim());
}

const nginxTest = (conf) => spawnSync(NGINX, ['-t', '-e', 'stderr', '-c', conf], { encoding: 'utf8' });

/** Starts nginx on a rendered folder (master in the foreground), its stderr (the error log) to a file. */
async function startNginx(dir, port) {
  const errorLog = join(dir, 'error.log');
  const child = spawn(NGINX, ['-e', 'stderr', '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const file = createWriteStream(errorLog);
  child.stderr.pipe(file);
  const until = Date.now() + 10_000;
  while (!(await tcpOpen('127.0.0.1', port, 300))) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${readFileSync(errorLog, 'utf8')}`);
    if (Date.now() > until) throw new Error('nginx did not listen within 10 s');
    await sleep(100);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    errorLog: () => readFileSync(errorLog, 'utf8'),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGQUIT'); // graceful: workers finish what they serve
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await once(child, 'exit');
      clearTimeout(timer);
    },
  };
}

/** A rendered folder of its own (nginx's workers may run as another user: readable by all). */
function runtimeDir(label) {
  const dir = mkdtempSync(join(tmpdir(), `vault-web-${label}-`));
  chmodSync(dir, 0o755);
  return dir;
}

const { check, finish } = tierChecks('web-tier');

/** Headers that say how an answer travels, not what it is allowed to do. */
const TRANSPORT = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
  'cache-control',
  'etag',
  'last-modified',
  'accept-ranges',
  'vary',
  'server',
  'x-request-id',
]);
const securityHeaders = (headers) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT.has(name)));

async function headerChecks(gateway, web, env) {
  const gwPage = await raw(`${gateway}/vault`);
  const expected = securityHeaders(gwPage.headers);
  assert.ok(expected['content-security-policy'], 'the gateway sends a CSP');
  const index = readFileSync(join(WEB_ROOT, 'index.html'));
  const sameSecurity = (res, what) =>
    assert.deepEqual(securityHeaders(res.headers), expected, `${what}: not the gateway's security headers`);

  for (const path of ['/', '/vault', '/notes/a/deep/route?x=1', '/index.html'])
    await check(`GET ${path}: index.html, no-store, the gateway's CSP and security headers`, async () => {
      const res = await raw(`${web}${path}`);
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /^text\/html/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.ok(res.body.equals(index), 'the body is not index.html');
      sameSecurity(res, path);
      assert.equal(res.headers.server, 'nginx', 'the Server header names a version');
    });

  const assets = [...index.toString().matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const js = assets.find((a) => a.endsWith('.js'));
  const css = assets.find((a) => a.endsWith('.css'));
  for (const asset of [js, css])
    await check(`GET ${asset}: a hashed asset, immutable for a year, gzip when asked`, async () => {
      assert.ok(asset, 'index.html names no such asset');
      const file = readFileSync(join(WEB_ROOT, asset));
      const plain = await raw(`${web}${asset}`);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.match(plain.headers['content-type'], asset.endsWith('.js') ? /javascript/ : /^text\/css/);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.ok(plain.body.equals(file));
      sameSecurity(plain, asset);
      const gz = await raw(`${web}${asset}`, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.match(gz.headers.vary ?? '', /Accept-Encoding/i);
      assert.ok(gunzipSync(gz.body).equals(file), 'the gzipped asset does not unpack to the file');
      assert.ok(gz.body.length < file.length, 'gzip made it no smaller');
    });

  await check('GET /favicon.svg: an unhashed file, no-cache', async () => {
    const res = await raw(`${web}/favicon.svg`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.match(res.headers['content-type'], /^image\/svg\+xml/);
    sameSecurity(res, '/favicon.svg');
  });

  await check("GET /env-config.js: rendered from the environment, no-store, the gateway's body", async () => {
    const res = await raw(`${web}/env-config.js`);
    const gw = await raw(`${gateway}/env-config.js`);
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(res.body.toString(), gw.body.toString());
    assert.equal(
      res.body.toString(),
      `window.__VAULT_CONFIG__ = Object.freeze({"inactivityTimeoutMs":${env.WEB_INACTIVITY_TIMEOUT_MS},"inactivityWarningMs":${env.WEB_INACTIVITY_WARNING_MS}});\n`,
    );
    sameSecurity(res, '/env-config.js');
  });

  for (const path of [
    '/assets/x.js',
    '/assets/missing-abcdefgh.css',
    '/missing.png',
    '/.env',
    '/.git/config',
  ])
    await check(`GET ${path}: 404, not the app`, async () => {
      const res = await raw(`${web}${path}`);
      assert.equal(res.status, 404);
      assert.ok(!res.body.equals(index), 'answered with index.html');
      assert.notEqual(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      sameSecurity(res, path);
    });

  await check(
    "GET /api/health: proxied, the gateway's own answer and headers, no-store, not compressed",
    async () => {
      const res = await raw(`${web}/api/health`, { headers: { 'accept-encoding': 'gzip' } });
      const gw = await raw(`${gateway}/api/health`);
      assert.equal(res.status, 200);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['content-encoding'], undefined);
      assert.equal(JSON.parse(res.body.toString()).status, 'ok');
      assert.deepEqual(securityHeaders(res.headers), securityHeaders(gw.headers));
      assert.ok(res.headers['x-request-id'], 'no request id from the gateway');
    },
  );

  for (const path of ['/api', '/api/no-such-route', '/api/docs/openapi.json'])
    await check(`GET ${path}: the gateway answers, never the app`, async () => {
      const res = await raw(`${web}${path}`);
      const gw = await raw(`${gateway}${path}`);
      assert.equal(res.status, gw.status);
      assert.match(res.headers['content-type'], /json/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.ok(!res.body.equals(index));
    });

  await check("a 1.5 MB JSON body: past nginx, refused by the gateway's own limit (413 JSON)", async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(1_500_000) });
    const res = await raw(`${web}/api/auth/prelogin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      body,
    });
    assert.equal(res.status, 413);
    assert.match(res.headers['content-type'], /json/, 'nginx answered, not the gateway');
  });

  await check(
    "a 3 MB JSON body: nginx's own limit, answered as the API's JSON 413 with the security headers",
    async () => {
      const body = JSON.stringify({ pad: 'x'.repeat(3_000_000) });
      const res = await raw(`${web}/api/auth/prelogin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        body,
      });
      assert.equal(res.status, 413);
      assert.deepEqual(JSON.parse(res.body.toString()), {
        error: 'Request body too large',
        code: 'PAYLOAD_TOO_LARGE',
      });
      assert.equal(res.headers['cache-control'], 'no-store');
      sameSecurity(res, '413 from nginx');
    },
  );

  await check("a 12 KiB header passes nginx to the gateway; a 20 KiB one is nginx's JSON 431", async () => {
    const passed = await raw(`${web}/api/health/live`, { headers: { 'x-long': 'a'.repeat(12 * 1024) } });
    assert.equal(passed.status, 200, 'the gateway answered the 12 KiB header');
    const refused = await raw(`${web}/api/health/live`, { headers: { 'x-long': 'a'.repeat(20 * 1024) } });
    assert.equal(refused.status, 431);
    assert.deepEqual(JSON.parse(refused.body.toString()), {
      error: 'Request headers too large',
      code: 'HEADERS_TOO_LARGE',
    });
    assert.equal(refused.headers['cache-control'], 'no-store');
    sameSecurity(refused, '431 from nginx');
  });

  await check(
    "a 20 KiB URL (nginx's 414) is the same JSON 431 the gateway gives it, never nginx's page",
    async () => {
      const path = `/api/notes?q=${'a'.repeat(20 * 1024)}`;
      const [res, gw] = [await raw(`${web}${path}`), await raw(`${gateway}${path}`)];
      assert.equal(gw.status, 431, 'the gateway itself refuses a 20 KiB request line');
      assert.equal(res.status, 431);
      assert.deepEqual(JSON.parse(res.body.toString()), JSON.parse(gw.body.toString()));
      assert.equal(res.headers['cache-control'], 'no-store');
      sameSecurity(res, '431 from nginx for a long URL');
    },
  );

  await check('HEAD / answers like GET without a body', async () => {
    const res = await raw(`${web}/`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.equal(res.body.length, 0);
  });
}

/**
 * TRUST_PROXY=true behind nginx: a client at 127.0.0.2 that forges X-Forwarded-For signs up
 * through nginx; its session must carry 127.0.0.2 (what nginx saw), not the forged address.
 */
async function clientAddressCheck(web) {
  await check("the gateway sees the client's address through nginx, never a forged one", async () => {
    const probe = await raw(`${web}/api/health/live`, { localAddress: '127.0.0.2' }).catch((e) => e);
    if (probe instanceof Error) throw new Error(`cannot connect from 127.0.0.2: ${probe.message}`);
    const password = 'Web-tier-Pass1';
    const { vaultKey: _kept, ...keys } = await createAccount(password, {
      kdfParams: { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 },
    });
    const username = `webip_${Date.now().toString(36)}`;
    const body = JSON.stringify({
      username,
      email: `${username}@example.org`,
      phoneNumber: `+1 555 ${String(Date.now()).slice(-9)}`,
      ...keys,
    });
    const signup = await raw(`${web}/api/auth/signup`, {
      method: 'POST',
      localAddress: '127.0.0.2',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'x-forwarded-for': '203.0.113.7',
      },
      body,
    });
    assert.equal(signup.status, 201, signup.body.toString());
    const { access } = JSON.parse(signup.body.toString());
    const sessions = await raw(`${web}/api/auth/sessions`, {
      headers: { authorization: `Bearer ${access}` },
    });
    const [session] = JSON.parse(sessions.body.toString()).sessions;
    assert.equal(session.ipAddress, '127.0.0.2');
  });
}

/** The request-buffering check must bite: nginx with buffering on logs the temp file it wrote. */
async function bufferingChecks(web, env) {
  const body = Buffer.alloc(4 * 1024 * 1024, 7);
  const put = (url) =>
    raw(
      `${url}/api/files/blob/00000000-0000-4000-8000-000000000000/00000000-0000-4000-8000-000000000001?op=put`,
      {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': body.length },
        body,
      },
    );
  // An unsigned PUT: the gateway streams it to the files service, which refuses the signature.
  // (403 LINK_INVALID as the files service answered it, or 503 from the gateway when that refusal
  // cuts its stream short; either way JSON from behind nginx, and nginx held nothing.)
  await check("a 4 MB PUT streams through nginx: no temp file, the gateway's own answer", async () => {
    const res = await put(web.url);
    const answer = JSON.parse(res.body.toString());
    console.log(`    answered ${res.status} ${answer.code}`);
    assert.match(res.headers['content-type'], /json/, 'nginx answered, not the gateway');
    assert.ok(answer.code, 'not an error of the gateway or the files service');
    assert.doesNotMatch(web.errorLog(), BUFFERED);
  });
  await check('…and the same PUT with request buffering on is caught (planted mistake)', async () => {
    const planted = runtimeDir('buffered');
    const port = await freePort();
    try {
      renderInto(planted, { ...env, LISTEN_PORT: String(port) });
      const proxy = join(planted, 'proxy.conf');
      writeFileSync(
        proxy,
        readFileSync(proxy, 'utf8').replace('proxy_request_buffering off;', 'proxy_request_buffering on;'),
      );
      const nginx = await startNginx(planted, port);
      try {
        await put(nginx.url);
        assert.match(
          nginx.errorLog(),
          BUFFERED,
          'nginx with buffering on left no trace: the check proves nothing',
        );
      } finally {
        await nginx.stop();
      }
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });
}

const started = Date.now();
const code = await withEphemeralStack(
  'web-tier',
  {
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
    LOGIN_IP_MAX_FAILURES: '100000',
    // One proxy in front: the client's address is the entry nginx appends to X-Forwarded-For.
    TRUST_PROXY: 'true',
    ...INACTIVITY,
  },
  async ({ baseUrl, env, logDir, crashed, stopService, startService }) => {
    log(`stack up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const dir = runtimeDir('tier');
    const port = await freePort();
    const renderEnv = {
      GATEWAY_UPSTREAM: new URL(baseUrl).host,
      LISTEN_ADDRESS: '127.0.0.1',
      LISTEN_PORT: String(port),
      WEB_ACCESS_LOG: join(dir, 'access.log'),
      ...(env.S3_PUBLIC_ENDPOINT ? { S3_PUBLIC_ENDPOINT: env.S3_PUBLIC_ENDPOINT } : {}),
      ...(env.CLOUDINARY_UPLOAD_ORIGIN ? { CLOUDINARY_UPLOAD_ORIGIN: env.CLOUDINARY_UPLOAD_ORIGIN } : {}),
      ...INACTIVITY,
    };
    let nginx;
    try {
      renderInto(dir, renderEnv);
      await check("nginx -t (Debian's nginx) accepts the rendered configuration", () => {
        const res = nginxTest(join(dir, 'nginx.conf'));
        assert.equal(res.status, 0, res.stderr);
      });
      await check('nginx -t refuses a planted mistake (a misspelt directive)', () => {
        const planted = runtimeDir('planted');
        try {
          cpSync(dir, planted, { recursive: true });
          for (const name of ['nginx.conf', 'proxy.conf']) {
            const file = join(planted, name);
            writeFileSync(
              file,
              readFileSync(file, 'utf8')
                .replaceAll(dir, planted)
                .replace('proxy_buffering off;', 'proxy_bufering off;'),
            );
          }
          const res = nginxTest(join(planted, 'nginx.conf'));
          assert.notEqual(res.status, 0, 'nginx -t accepted a misspelt directive');
          assert.match(res.stderr, /unknown directive "proxy_bufering"/);
        } finally {
          rmSync(planted, { recursive: true, force: true });
        }
      });
      nginx = await startNginx(dir, port);
      log(`nginx (${NGINX}) at ${nginx.url} in front of the gateway at ${baseUrl}`);

      await headerChecks(baseUrl, nginx.url, INACTIVITY);
      await check(
        "the gateway down: nginx answers the API's JSON 503 with the security headers, then serves again",
        async () => {
          const expected = securityHeaders((await raw(`${baseUrl}/vault`)).headers);
          await stopService('gateway');
          try {
            const res = await raw(`${nginx.url}/api/health`);
            assert.equal(res.status, 503);
            assert.deepEqual(JSON.parse(res.body.toString()), {
              error: 'Service unavailable',
              code: 'SERVICE_UNAVAILABLE',
            });
            assert.deepEqual(securityHeaders(res.headers), expected);
            assert.equal(res.headers['cache-control'], 'no-store');
          } finally {
            startService('gateway');
            await waitHealthy(baseUrl, 30_000);
          }
          assert.equal((await raw(`${nginx.url}/api/health`)).status, 200);
        },
      );
      await clientAddressCheck(nginx.url);
      await bufferingChecks(nginx, renderEnv);

      for (const spec of specs)
        await check(`${spec} through nginx`, async () => {
          const status = await runStatus(process.execPath, [join(ROOT, spec)], {
            env: {
              ...process.env,
              BASE_URL: nginx.url,
              OUT_DIR: join(ROOT, '.data', 'web-tier-shots'),
              DATABASE_URL: env.DATABASE_URL,
              STORAGE_LOCAL_ROOT: env.STORAGE_LOCAL_ROOT,
            },
          });
          assert.equal(status, 0, `${spec} failed (its output is above)`);
        });

      await check('uploads and downloads were streamed: nginx wrote no temp file', () => {
        assert.doesNotMatch(nginx.errorLog(), BUFFERED);
        // But for the two errors the checks above cause on purpose: the 3 MB body and the gateway stopped.
        const planted =
          /client intended to send too large body|connect\(\) failed \(111: Connection refused\) while connecting to upstream/;
        const errors = nginx
          .errorLog()
          .split('\n')
          .filter((line) => /\[(error|crit|alert|emerg)\]/.test(line) && !planted.test(line));
        assert.deepEqual(errors, []);
      });
      await check('the access log holds paths without their queries (signed URLs stay out)', () => {
        const lines = readFileSync(join(dir, 'access.log'), 'utf8');
        assert.match(lines, /"PUT \/api\/files\/blob\/[^ ?]+ HTTP/, 'no blob upload went through nginx');
        assert.doesNotMatch(lines, /sig=/);
      });
    } finally {
      await nginx?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    return finish({ crashed: crashed(), logDir });
  },
).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
process.exit(code);
