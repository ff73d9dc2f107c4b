#!/usr/bin/env node
// `npm test`: every tier, in order, each one's result counted; non-zero exit if any fails.
// Tiers (docs/architecture.md "Test tiers"): format, lint, build, typecheck, unit (Jest and Vitest),
// medium, deploy files, API e2e (over TCP and NATS), browser e2e, the web tier (nginx), backup and
// restore, the services on compose's environment, crypto in Chromium.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureNats, ensurePostgres, ensureRedis } from './lib/services.mjs';
import { ROOT, ensureDependencies, log, paint, run } from './lib/util.mjs';

const only = process.argv.slice(2);
const resultsDir = join(ROOT, '.data', 'test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const bin = (pkg, file) => join(ROOT, 'node_modules', pkg, file);
const node = process.execPath;
const jest = (project, extra = []) => [
  bin('jest', 'bin/jest.js'),
  '--selectProjects',
  project,
  '--json',
  `--outputFile=${join(resultsDir, `${project}.json`)}`,
  ...extra,
];

const tiers = [
  {
    name: 'format',
    cmd: node,
    args: [bin('prettier', 'bin/prettier.cjs'), '--check', '.', '--log-level', 'warn'],
  },
  {
    name: 'lint',
    cmd: 'bash',
    args: ['-c', 'NX_DAEMON=false npx nx show projects >/dev/null && npx eslint . --max-warnings 0'],
  },
  // Services and libs (tsc -b) and the web app (vite build): the e2e tiers run what this builds.
  { name: 'build', cmd: node, args: ['scripts/build.mjs'] },
  {
    name: 'typecheck',
    cmd: 'bash',
    args: [
      '-c',
      'npx tsc -p tsconfig.spec.json --noEmit && npx tsc -p apps/web/tsconfig.json --noEmit && npx tsc -p apps/web/tsconfig.node.json --noEmit',
    ],
  },
  // Both cores (Jest's default leaves one idle on these 2-core machines: 47 s → 25 s).
  { name: 'unit', cmd: node, args: jest('unit', ['--maxWorkers=2']), jestJson: 'unit' },
  {
    name: 'web-unit',
    cmd: node,
    args: [
      bin('vitest', 'vitest.mjs'),
      'run',
      '--root',
      'apps/web',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(resultsDir, 'web-unit.json')}`,
    ],
    jestJson: 'web-unit',
  },
  { name: 'medium', cmd: node, args: jest('medium', ['--runInBand']), jestJson: 'medium' },
  { name: 'deploy', cmd: node, args: ['infra/validate.mjs'], countsFromOutput: true },
  // kubectl kustomize builds every overlay, kubernetes-models validates each object, then the
  // project's own rules (infra/k8s-policies.mjs).
  { name: 'deploy-k8s', cmd: node, args: ['infra/validate-k8s.mjs'], countsFromOutput: true },
  // Proves the Kubernetes checks bite: each planted mistake, built by kubectl kustomize, must be caught.
  {
    name: 'deploy-k8s-self',
    cmd: node,
    args: ['infra/validate-k8s.mjs', '--self-test'],
    countsFromOutput: true,
  },
  {
    name: 'e2e-api',
    cmd: node,
    args: ['scripts/e2e.mjs', '--json', `--outputFile=${join(resultsDir, 'e2e.json')}`],
    env: { VAULT_SKIP_BUILD: '1' },
    jestJson: 'e2e',
  },
  {
    name: 'e2e-api-nats',
    cmd: node,
    args: ['scripts/e2e.mjs', '--json', `--outputFile=${join(resultsDir, 'e2e-nats.json')}`],
    env: { VAULT_SKIP_BUILD: '1', VAULT_E2E_TRANSPORT: 'nats' },
    jestJson: 'e2e-nats',
  },
  {
    name: 'browser',
    cmd: node,
    args: ['scripts/browser-e2e.mjs'],
    env: { VAULT_SKIP_BUILD: '1' },
    countsFromOutput: true,
  },
  // Debian's nginx with infra/web's configuration in front of a private stack (issue 16).
  {
    name: 'web-tier',
    cmd: node,
    args: ['scripts/web-tier-e2e.mjs'],
    env: { VAULT_SKIP_BUILD: '1' },
    countsFromOutput: true,
  },
  // npm run backup / restore around a wipe, a browser on both sides (docs/backup.md).
  {
    name: 'backup',
    cmd: node,
    args: ['scripts/backup-e2e.mjs'],
    env: { VAULT_SKIP_BUILD: '1' },
    countsFromOutput: true,
  },
  // Every service on exactly the environment docker-compose.yml gives it, hosts mapped to this
  // machine, nginx in front: the API smoke (issue 16).
  {
    name: 'compose-env',
    cmd: node,
    args: ['scripts/compose-env-e2e.mjs', '--json', `--outputFile=${join(resultsDir, 'e2e-compose.json')}`],
    env: { VAULT_SKIP_BUILD: '1' },
    jestJson: 'e2e-compose',
  },
  {
    name: 'crypto-chromium',
    cmd: node,
    args: ['libs/crypto/test/browser/run-vectors.mjs'],
    countsFromOutput: true,
  },
];

/** Runs one tier, echoing its output, and returns {code, passed, failed}. */
function runTier(tier) {
  return new Promise((resolve) => {
    const child = spawn(tier.cmd, tier.args, {
      cwd: ROOT,
      env: { ...process.env, ...tier.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let tail = '';
    const onData = (target) => (chunk) => {
      target.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', onData(process.stdout));
    child.stderr.on('data', onData(process.stderr));
    child.on('exit', (code, signal) => {
      const result = { code: code ?? (signal ? 1 : 0), passed: 0, failed: 0 };
      if (tier.jestJson) {
        const file = join(resultsDir, `${tier.jestJson}.json`);
        if (existsSync(file)) {
          const json = JSON.parse(readFileSync(file, 'utf8'));
          result.passed = json.numPassedTests;
          result.failed = json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0);
          if (json.numTotalTests === 0) result.code = result.code || 1; // a tier that ran nothing proves nothing
        }
      } else if (tier.countsFromOutput) {
        const m = [...tail.matchAll(/(\d+) passed, (\d+) failed/g)].pop();
        if (m) {
          result.passed = Number(m[1]);
          result.failed = Number(m[2]);
        }
      } else {
        result[result.code === 0 ? 'passed' : 'failed'] = 1;
      }
      resolve(result);
    });
  });
}

const started = Date.now();
ensureDependencies();
await ensurePostgres(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
await ensureRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
await ensureNats(process.env.NATS_URL ?? 'nats://127.0.0.1:4222');
run('bash', ['scripts/ensure-tools.sh']);

const summary = [];
for (const tier of tiers) {
  if (only.length && !only.includes(tier.name)) continue;
  log(paint(1, `── ${tier.name} ──`));
  const t0 = Date.now();
  const result = await runTier(tier);
  summary.push({ ...tier, ...result, seconds: (Date.now() - t0) / 1000 });
}

console.log(`\n${paint(1, 'Test tiers')}`);
let passed = 0;
let failed = 0;
for (const s of summary) {
  const ok = s.code === 0 && s.failed === 0;
  passed += s.passed;
  failed += s.failed + (ok || s.failed > 0 ? 0 : 1);
  console.log(
    `  ${ok ? paint(32, 'PASS') : paint(31, 'FAIL')}  ${s.name.padEnd(16)} ${String(s.passed).padStart(4)} passed ${String(s.failed).padStart(3)} failed  ${s.seconds.toFixed(1)}s`,
  );
}
console.log(`  total time ${((Date.now() - started) / 1000).toFixed(0)}s`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(summary.every((s) => s.code === 0 && s.failed === 0) ? 0 : 1);
