#!/usr/bin/env node
// Browser end-to-end tier: the whole stack in local mode on private ports serving the built web
// app, driven by headless Chromium (playwright-core + Debian's chromium) through real screens.
import { join } from 'node:path';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { ROOT, log, runStatus } from './lib/util.mjs';

const specs = ['apps/e2e/browser/web-smoke.mjs', 'apps/e2e/browser/notes-ui.mjs'];

const code = await withEphemeralStack(
  'browser',
  {
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_API_PER_MINUTE: '100000',
    LOGIN_IP_MAX_FAILURES: '100000',
  },
  async ({ baseUrl, crashed }) => {
    let failed = 0;
    for (const spec of specs) {
      const status = await runStatus(process.execPath, [join(ROOT, spec)], {
        env: { ...process.env, BASE_URL: baseUrl, OUT_DIR: join(ROOT, '.data', 'browser-shots') },
      });
      log(`${spec}: ${status === 0 ? 'passed' : 'FAILED'}`);
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
