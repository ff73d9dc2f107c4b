#!/usr/bin/env node
// API end-to-end tier: the whole stack in local mode on private ports, driven over HTTP.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { ROOT, log, runStatus } from './lib/util.mjs';

const extraArgs = process.argv.slice(2);
const overrides = {
  // Rate limits are proven by the gateway's medium tests; the e2e suite must not trip them.
  RATE_LIMIT_AUTH_PER_MINUTE: '100000',
  RATE_LIMIT_API_PER_MINUTE: '100000',
  LOGIN_IP_MAX_FAILURES: '100000',
  LOCKOUT_THRESHOLD: '5',
  LOCKOUT_SECONDS: '600',
  // Short enough for a test to wait past it.
  REFRESH_REUSE_GRACE_SECONDS: '2',
  // The same suite runs over TCP (local, compose) and NATS (Kubernetes).
  RPC_TRANSPORT: process.env.VAULT_E2E_TRANSPORT ?? 'tcp',
  // Recovery mail goes to .eml files (MAIL_TRANSPORT=log) in a folder of this run, which the
  // tests read (VAULT_E2E_MAIL_DIR). The per-IP limit of email-code is proven by the auth
  // medium tests; every e2e request comes from 127.0.0.1.
  MAIL_TRANSPORT: 'log',
  MAIL_DIR: join(ROOT, '.data', `e2e-mail-${randomBytes(4).toString('hex')}`),
  RECOVERY_CODE_IP_MAX: '100000',
  // apps/e2e/api/test-runner.e2e-spec.ts runs a suite of the server test runner (off by default).
  TEST_RUNNER_ENABLED: 'true',
  // Every process's internal ops listener (probes and /metrics) on a free port of its own, logged
  // at boot, where apps/e2e/api/metrics.e2e-spec.ts finds it.
  HEALTH_PORT: '0',
};

const code = await withEphemeralStack(
  `e2e_${overrides.RPC_TRANSPORT}`,
  overrides,
  async ({ baseUrl, env, logDir, crashed }) => {
    const status = await runStatus(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--selectProjects',
        'e2e',
        '--runInBand',
        ...extraArgs,
      ],
      {
        env: {
          ...process.env,
          VAULT_E2E_BASE_URL: baseUrl,
          VAULT_E2E_LOG_DIR: logDir,
          VAULT_E2E_REDIS_URL: env.REDIS_URL,
          VAULT_E2E_REDIS_PREFIX: env.REDIS_PREFIX,
          VAULT_E2E_DATABASE_URL: env.DATABASE_URL,
          VAULT_E2E_STORAGE_ROOT: env.STORAGE_LOCAL_ROOT,
          VAULT_E2E_MAIL_DIR: env.MAIL_DIR,
        },
      },
    );
    if (crashed()) {
      log(`a service crashed during the run: ${crashed()}`);
      return 1;
    }
    return status;
  },
).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
rmSync(overrides.MAIL_DIR, { recursive: true, force: true });
process.exit(code);
