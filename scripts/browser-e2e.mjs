#!/usr/bin/env node
// Browser end-to-end tier: the whole stack in local mode on private ports serving the built web
// app, driven by headless Chromium (playwright-core + Debian's chromium) through real screens.
import { once } from 'node:events';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { SERVICES, waitHealthy } from './lib/stack.mjs';
import { ROOT, log, runStatus } from './lib/util.mjs';

const allSpecs = [
  'apps/e2e/browser/web-smoke.mjs',
  'apps/e2e/browser/notes-ui.mjs',
  'apps/e2e/browser/zero-knowledge-ui.mjs',
  'apps/e2e/browser/files-ui.mjs',
  'apps/e2e/browser/hostile-server-ui.mjs',
  'apps/e2e/browser/recovery-ui.mjs',
  'apps/e2e/browser/settings-ui.mjs',
  'apps/e2e/browser/signin-2fa-ui.mjs',
  'apps/e2e/browser/import-order-ui.mjs',
  'apps/e2e/browser/layout-ui.mjs',
  'apps/e2e/browser/new-user-ui.mjs',
  'apps/e2e/browser/admin-ui.mjs',
  'apps/e2e/browser/testing-ui.mjs',
  'apps/e2e/browser/testing-server-runner-ui.mjs',
];

/**
 * The stack's control endpoint for the specs (STACK_CONTROL_URL), on 127.0.0.1 while they run:
 * POST /services/<name>/stop stops one of the stack's services on purpose (not a crash), and
 * POST /services/<name>/start starts it again and answers once GET /api/health reports it ok.
 * `restore()` starts again what a spec left stopped, so that the next spec finds the whole stack.
 */
async function startControlServer({ baseUrl, stopService, startService }) {
  const names = new Set(SERVICES.map((s) => s.name));
  const stopped = new Set();
  const start = async (name) => {
    startService(name);
    await waitHealthy(baseUrl, 60000, { service: name });
    stopped.delete(name);
  };
  const server = createServer(async (req, res) => {
    const answer = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const [, name, action] = /^\/services\/([^/]+)\/(stop|start)$/.exec(req.url ?? '') ?? [];
    if (req.method !== 'POST' || !action) {
      return answer(404, { error: 'POST /services/<name>/stop or /services/<name>/start' });
    }
    if (!names.has(name)) return answer(404, { error: `no service named ${name}` });
    try {
      if (action === 'stop') {
        stopped.add(name);
        await stopService(name);
      } else await start(name);
      log(`control: ${name} ${action === 'stop' ? 'stopped' : 'started and healthy'}`);
      answer(200, { service: name, state: action === 'stop' ? 'stopped' : 'up' });
    } catch (error) {
      answer(409, { error: error instanceof Error ? error.message : String(error) });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    async restore() {
      for (const name of stopped) {
        log(`${name} was left stopped: starting it again`);
        await start(name);
      }
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// `node scripts/browser-e2e.mjs zero-knowledge` runs only the specs whose path contains an argument.
const only = process.argv.slice(2);
const specs = allSpecs.filter((spec) => only.length === 0 || only.some((part) => spec.includes(part)));

const code = await withEphemeralStack(
  'browser',
  {
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
    LOGIN_IP_MAX_FAILURES: '100000',
    // testing-server-runner-ui.mjs drives the server test runner (off by default).
    TEST_RUNNER_ENABLED: 'true',
  },
  async ({ baseUrl, env, logDir, crashed, stopService, startService }) => {
    let failed = 0;
    const control = await startControlServer({ baseUrl, stopService, startService });
    try {
      for (const spec of specs) {
        const started = Date.now();
        const status = await runStatus(process.execPath, [join(ROOT, spec)], {
          env: {
            ...process.env,
            BASE_URL: baseUrl,
            OUT_DIR: join(ROOT, '.data', 'browser-shots'),
            // The run's stores and logs, for zero-knowledge-ui.mjs to search; the database also for
            // admin-ui.mjs's role command (apps/auth/dist/cli/promote.js).
            DATABASE_URL: env.DATABASE_URL,
            REDIS_URL: env.REDIS_URL,
            REDIS_PREFIX: env.REDIS_PREFIX,
            LOG_DIR: logDir,
            // Where local-disk objects are kept, for files-ui.mjs to tamper with one.
            STORAGE_LOCAL_ROOT: env.STORAGE_LOCAL_ROOT,
            // Where the local mail transport writes recovery mail (.eml), for recovery-ui.mjs to read codes.
            MAIL_DIR: env.MAIL_DIR ?? join(env.VAULT_DATA_DIR, 'mail'),
            // Stops and starts a service of this stack (testing-ui.mjs: the notes outage).
            STACK_CONTROL_URL: control.url,
          },
        });
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        log(`${spec}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
        if (status !== 0) failed += 1;
        await control.restore();
      }
    } finally {
      await control.close();
    }
    if (crashed()) {
      log(`a service crashed during the run: ${crashed()}`);
      failed += 1;
    }
    console.log(`browser: ${specs.length - failed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  },
).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
process.exit(code);
