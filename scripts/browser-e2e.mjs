#!/usr/bin/env node
// Browser end-to-end tier: the whole stack in local mode on private ports serving the built web
// app, driven by headless Chromium (playwright-core + Debian's chromium) through real screens.
import { join } from 'node:path';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { ROOT, log, runStatus } from './lib/util.mjs';

const allSpecs = [
  'apps/e2e/browser/web-smoke.mjs',
  'apps/e2e/browser/notes-ui.mjs',
  'apps/e2e/browser/zero-knowledge-ui.mjs',
  'apps/e2e/browser/files-ui.mjs',
  'apps/e2e/browser/recovery-ui.mjs',
  'apps/e2e/browser/settings-ui.mjs',
  'apps/e2e/browser/signin-2fa-ui.mjs',
  'apps/e2e/browser/import-order-ui.mjs',
  'apps/e2e/browser/layout-ui.mjs',
  'apps/e2e/browser/new-user-ui.mjs',
  'apps/e2e/browser/admin-ui.mjs',
  'apps/e2e/browser/testing-ui.mjs',
];
// `node scripts/browser-e2e.mjs zero-knowledge` runs only the specs whose path contains an argument.
const only = process.argv.slice(2);
const specs = allSpecs.filter((spec) => only.length === 0 || only.some((part) => spec.includes(part)));

const code = await withEphemeralStack(
  'browser',
  {
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
    LOGIN_IP_MAX_FAILURES: '100000',
  },
  async ({ baseUrl, env, logDir, crashed }) => {
    let failed = 0;
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
        },
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      log(`${spec}: ${status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
      if (status !== 0) failed += 1;
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
