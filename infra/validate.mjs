#!/usr/bin/env node
// Offline checks of the deployment files (docs/operations.md "Toolchain on the test machines"):
// no Docker engine runs here, so compose is validated by docker-compose's own parser and by dclint
// (the compose schema and its rules), then by this project's own checks (compose-check.mjs), and
// the Dockerfile is checked against the workspace it builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import {
  allowScriptsOf,
  defaultReadTsconfig,
  dependencyProblems,
  missingRuntimeFiles,
  parseDockerfile,
  runtimeCopyProblems,
  runtimeNeeds,
  tsconfigEmitters,
  webImageProblems,
  workspaceFiles,
} from './dockerfile-check.mjs';
import { checkRunner, root } from './checks.mjs';
import { COMPOSE_CHECKS, COMPOSE_MUTATIONS } from './compose-check.mjs';
import {
  BAD_RENDER_ENV,
  CHECK_ENV,
  GOOD_RENDER_ENV,
  WEB_CHECKS,
  WEB_MUTATIONS,
  gatewayTruth,
  render,
} from './web/web-check.mjs';

const { check, finish } = checkRunner();

const composeFile = join(root, 'docker-compose.yml');
const compose = YAML.parse(readFileSync(composeFile, 'utf8'), { merge: true });

// What compose requires from .env (no default password): stand-in values for the parser.
const REQUIRED_ENV = {
  POSTGRES_PASSWORD: 'check-only',
  S3_ACCESS_KEY: 'check-only',
  S3_SECRET_KEY: 'check-only',
};
const composeConfig = (file, env = REQUIRED_ENV) =>
  spawnSync('docker-compose', ['-f', file, 'config', '-q'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });

check('docker-compose config accepts docker-compose.yml', () => {
  const res = composeConfig(composeFile);
  if (res.error)
    throw new Error(
      `docker-compose is not installed (scripts/ensure-tools.sh installs it): ${res.error.message}`,
    );
  if (res.status !== 0) throw new Error(res.stderr || `exit ${res.status}`);
});

// dclint: the compose schema (which it always checks first) and its rules, with the rules this
// file turns off, and why, in .dclintrc. Its findings, warnings included, fail the check.
const dclint = (file) =>
  spawnSync(process.execPath, [join(root, 'node_modules', 'dclint', 'bin', 'dclint.cjs'), file], {
    cwd: root,
    encoding: 'utf8',
  });
const dclintProblems = (res) =>
  res.status === 0 && !/\bwarning\b/.test(res.stdout) ? '' : `${res.stdout}${res.stderr}`.trim();
check('dclint: docker-compose.yml matches the compose schema and the linter rules (.dclintrc)', () => {
  const problems = dclintProblems(dclint(composeFile));
  if (problems) throw new Error(problems);
});

// The same two tools on planted mistakes, written to a copy beside the original (for .dclintrc).
const plantedCompose = (edit, run) => {
  const file = join(root, `.docker-compose.planted-${process.pid}.yml`);
  writeFileSync(file, edit(readFileSync(composeFile, 'utf8')));
  try {
    return run(file);
  } finally {
    rmSync(file, { force: true });
  }
};
const COMPOSE_TOOL_MUTATIONS = [
  [
    'dclint',
    'an unknown key in a service (the compose schema)',
    (t) => t.replace(/^ {2}notes:\n/m, '  notes:\n    restart_policy: always\n'),
  ],
  [
    'dclint',
    'a port published without its interface',
    (t) => t.replace("'0.0.0.0:${VAULT_PORT:-8080}:8080'", "'${VAULT_PORT:-8080}:8080'"),
  ],
  [
    'docker-compose config',
    'a depends_on condition compose does not know',
    (t) => t.replace('redis: { condition: service_healthy }', 'redis: { condition: service_ready }'),
  ],
];
for (const [tool, what, edit] of COMPOSE_TOOL_MUTATIONS)
  check(`${tool} catches: ${what}`, () => {
    const caught = plantedCompose(edit, (file) => {
      if (tool === 'dclint') return dclintProblems(dclint(file)) !== '';
      return composeConfig(file).status !== 0;
    });
    if (!caught) throw new Error('not caught');
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
      for (const entry of readdirSync(join(root, base))) {
        if (existsSync(join(root, base, entry, 'package.json'))) dirs.push(`${base}/${entry}`);
      }
    } else dirs.push(base);
  }
  const missing = dirs.filter((d) => !dockerfile.includes(`COPY ${d}/package.json ${d}/`));
  if (missing.length) throw new Error(`Dockerfile misses: ${missing.join(', ')}`);
});

// ── the Dockerfile: what the runtime image holds, how dependencies are installed ──────────
const dockerfileText = readFileSync(join(root, 'Dockerfile'), 'utf8');
const services = buildArgs.map(([, arg]) => arg);
// The stage each built image comes from: services (SERVICE build arg) from their target or the last
// stage; the web tier from its own target (web) and the backup container from its own (backup),
// each with rules of its own.
const targetsOf = (pick) => [
  ...new Set(
    Object.values(compose.services)
      .filter((d) => d.build && pick(d.build))
      .map((d) => d.build.target),
  ),
];
const serviceTargets = targetsOf((b) => b.args?.SERVICE);
const webTargets = targetsOf((b) => !b.args?.SERVICE && b.target === 'web');
const backupTargets = targetsOf((b) => b.target === 'backup');
const libs = readdirSync(join(root, 'libs')).filter((l) => existsSync(join(root, 'libs', l, 'package.json')));
const files = workspaceFiles(root);
const allowScripts = allowScriptsOf(root);
const dockerCtx = (readTsconfig = defaultReadTsconfig) => ({
  root,
  services,
  files,
  emitters: tsconfigEmitters(root, readTsconfig),
});
const DOCKER_CHECKS = {
  'test-code': (text, ctx) => {
    const parsed = parseDockerfile(text);
    return [...serviceTargets, ...webTargets, ...backupTargets].flatMap((target) =>
      runtimeCopyProblems(parsed, { ...ctx, target }).map((p) => (target ? `${target}: ${p}` : p)),
    );
  },
  needs: (text) => {
    const parsed = parseDockerfile(text);
    return serviceTargets.flatMap((target) =>
      missingRuntimeFiles(parsed, runtimeNeeds(libs), target).map(
        (n) => `the runtime stage does not copy ${n} to ${n}`,
      ),
    );
  },
  deps: (text) => dependencyProblems(parseDockerfile(text), { allowScripts }),
  /**
   * The backup container (docs/backup.md): the PostgreSQL 15 client tools, every lib's build, the
   * four migrating services' builds (restore runs their migrations) and the backup scripts, no
   * other script and no test; as the node user.
   */
  backup: (text) => {
    if (!backupTargets.length) return ['no compose service builds the backup image (build.target: backup)'];
    const parsed = parseDockerfile(text);
    const out = [];
    for (const target of backupTargets) {
      const stage = parsed.stages.find((st) => st.name === target);
      if (!stage) {
        out.push(`${target}: no such stage`);
        continue;
      }
      // The stage and those it is built FROM (node-base holds the libs).
      const stages = [];
      for (let st = stage; st; st = st.parent) stages.unshift(st);
      const body = stages.flatMap((st) => st.instructions.map((i) => `${i.cmd} ${i.args}`)).join('\n');
      if (!/postgresql-client-15\b/.test(body))
        out.push(`${target}: no postgresql-client-15 (pg_dump, pg_restore)`);
      for (const project of [
        ...libs.map((l) => `libs/${l}`),
        ...['auth', 'notes', 'files', 'admin'].map((a) => `apps/${a}`),
      ])
        if (!body.includes(`/app/${project}/dist ${project}/dist`))
          out.push(`${target}: does not copy ${project}/dist`);
      const scripts = stage.instructions
        .filter((i) => i.cmd === 'COPY' && !/--from=/.test(i.args))
        .flatMap((i) => i.sources);
      for (const needed of ['scripts/backup.mjs', 'scripts/restore.mjs', 'scripts/lib/util.mjs'])
        if (!scripts.includes(needed)) out.push(`${target}: does not copy ${needed}`);
      for (const src of scripts)
        if (
          !/^scripts\/(backup|restore)\.mjs$|^scripts\/lib\/util\.mjs$|^scripts\/lib\/backup\/[a-z-]+\.mjs$/.test(
            src,
          ) ||
          /\.test\.mjs$/.test(src)
        )
          out.push(`${target}: copies ${src}, which the backup does not run`);
      const users = stage.instructions.filter((i) => i.cmd === 'USER').map((i) => i.args.trim());
      if (users.at(-1) !== 'node') out.push(`${target}: does not run as the node user`);
    }
    return out;
  },
  web: (text) => {
    if (!webTargets.length) return ['no compose service builds the web image (build.target: web)'];
    return webTargets.flatMap((target) => webImageProblems(parseDockerfile(text), target));
  },
};

check(
  'the runtime image copies no sources, tests, specs or test servers (only package.json, dist, production node_modules)',
  () => {
    const problems = DOCKER_CHECKS['test-code'](dockerfileText, dockerCtx());
    if (problems.length) throw new Error(problems.join('\n'));
  },
);

check("the runtime image holds what a service runs: its package.json and dist, and every lib's", () => {
  const problems = DOCKER_CHECKS.needs(dockerfileText);
  if (problems.length) throw new Error(problems.join('\n'));
});

check(
  'the web image: unprivileged nginx at a pinned release, the built app and infra/web only, a healthcheck',
  () => {
    const problems = DOCKER_CHECKS.web(dockerfileText);
    if (problems.length) throw new Error(problems.join('\n'));
  },
);

check(
  'the backup image: the PostgreSQL client tools, the builds restore migrates with, the backup scripts only, as node',
  () => {
    const problems = DOCKER_CHECKS.backup(dockerfileText);
    if (problems.length) throw new Error(problems.join('\n'));
  },
);

check('npm ci installs the lockfile with no fallback, on an npm that reads allowScripts', () => {
  const problems = DOCKER_CHECKS.deps(dockerfileText);
  if (problems.length) throw new Error(problems.join('\n'));
});

// Planted mistakes: each must be caught by the check named, or that check proves nothing.
const APP_COPY =
  'COPY --from=build /app/apps/${SERVICE}/package.json apps/${SERVICE}/\nCOPY --from=build /app/apps/${SERVICE}/dist apps/${SERVICE}/dist\n';
const RUNTIME_FROM = /^FROM node-base AS runtime$/m;
// Before the runtime stage's USER (the last stage; other stages end with a USER of their own).
const beforeUser = (line) => (text) => {
  const at = text.lastIndexOf('\nUSER node\n');
  return `${text.slice(0, at)}\n${line}${text.slice(at)}`;
};
const replace = (from, to) => (text) => {
  if (!(typeof from === 'string' ? text.includes(from) : from.test(text)))
    throw new Error(`the planted mistake does not apply: ${from} is not in the Dockerfile`);
  return text.replace(from, to);
};
/** A tsconfig reader that sees `config` changed by `edit` (the file on disk is left alone). */
const tsconfigEdited = (config, edit) => (r, name) => {
  if (name !== config) return defaultReadTsconfig(r, name);
  const json = JSON.parse(readFileSync(join(r, name), 'utf8'));
  return defaultReadTsconfig(r, name, edit(json));
};
const MUTATIONS = [
  [
    'test-code',
    'the whole app folder (COPY --from=build /app/apps/${SERVICE} apps/${SERVICE})',
    replace(APP_COPY, 'COPY --from=build /app/apps/${SERVICE} apps/${SERVICE}\n'),
  ],
  [
    'test-code',
    "an app's sources",
    beforeUser('COPY --from=build /app/apps/${SERVICE}/src apps/${SERVICE}/src'),
  ],
  [
    'test-code',
    "an app's tests",
    beforeUser('COPY --from=build /app/apps/${SERVICE}/test apps/${SERVICE}/test'),
  ],
  [
    'test-code',
    'everything in an app folder (a wildcard)',
    beforeUser('COPY --from=build /app/apps/${SERVICE}/* apps/${SERVICE}/'),
  ],
  [
    'test-code',
    'compiled spec files',
    beforeUser('COPY --from=build /app/apps/${SERVICE}/dist/*.spec.js apps/${SERVICE}/dist/'),
  ],
  [
    'test-code',
    "a lib's testing folder",
    beforeUser('COPY --from=build /app/libs/storage/testing libs/storage/testing'),
  ],
  [
    'test-code',
    "a lib's compiled test servers",
    beforeUser('COPY --from=build /app/libs/server-kit/testing/dist libs/server-kit/testing/dist'),
  ],
  ['test-code', 'the e2e tests from the build context', beforeUser('COPY apps/e2e apps/e2e')],
  ['test-code', 'a benchmark', beforeUser('COPY bench/signin.bench.mjs bench/')],
  [
    'test-code',
    'the whole libs folder',
    replace('COPY --from=build /app/libs/storage/dist libs/storage/dist', 'COPY --from=build /app/libs libs'),
  ],
  ['test-code', 'the whole workspace', beforeUser('COPY . .')],
  [
    'test-code',
    'a whole app folder, exec form over continued lines',
    beforeUser('COPY --from=build \\\n    # the app\n    ["/app/apps/${SERVICE}", "apps/${SERVICE}/"]'),
  ],
  ['test-code', 'a source file by ADD', beforeUser('ADD apps/gateway/src/main.ts apps/gateway/src/')],
  ['test-code', 'a runtime stage built FROM the build stage', replace(RUNTIME_FROM, 'FROM build AS runtime')],
  [
    'test-code',
    'node_modules with the dev dependencies',
    replace('--from=prod-deps /app/node_modules', '--from=deps /app/node_modules'),
  ],
  [
    'test-code',
    "a lib's tsconfig that compiles src/testing into dist",
    null,
    tsconfigEdited('libs/storage/tsconfig.json', (j) => ({ ...j, exclude: ['src/**/*.spec.ts'] })),
  ],
  [
    'test-code',
    "a service's tsconfig that compiles its specs",
    null,
    tsconfigEdited('apps/files/tsconfig.json', (j) => ({ ...j, exclude: [] })),
  ],
  [
    'test-code',
    'the scan worker compiling its src/testing helpers',
    null,
    tsconfigEdited('apps/scan-worker/tsconfig.json', (j) => ({ ...j, exclude: ['src/**/*.spec.ts'] })),
  ],
  [
    'test-code',
    'the test servers built into the copied dist',
    null,
    tsconfigEdited('libs/storage/tsconfig.testing.json', (j) => ({
      ...j,
      compilerOptions: { ...j.compilerOptions, outDir: 'dist/testing' },
    })),
  ],
  [
    'needs',
    "the service's dist left out",
    replace('COPY --from=build /app/apps/${SERVICE}/dist apps/${SERVICE}/dist\n', ''),
  ],
  [
    'needs',
    "a lib's package.json left out",
    replace('COPY --from=build /app/libs/storage/package.json libs/storage/\n', ''),
  ],
  [
    'deps',
    'npm ci falling back to npm install',
    replace(/^RUN npm ci (.*)$/m, 'RUN npm ci $1 || npm install $1'),
  ],
  ['deps', 'npm install instead of npm ci', replace(/^RUN npm ci /m, 'RUN npm install ')],
  [
    'deps',
    "the image's bundled npm (allowScripts ignored)",
    replace(/^RUN npm install --global "npm@.*\n/m, ''),
  ],
  [
    'deps',
    'an npm older than allowScripts needs',
    replace(/^ARG NPM_VERSION=.*$/m, 'ARG NPM_VERSION=11.12.0'),
  ],
  ['deps', 'an npm that is not pinned', replace(/^ARG NPM_VERSION=.*$/m, 'ARG NPM_VERSION=latest')],
  ['deps', 'install scripts ignored', replace(/^RUN npm ci /m, 'RUN npm ci --ignore-scripts ')],
  [
    'web',
    'an unpinned nginx',
    replace(/^ARG NGINX_IMAGE=.*$/m, 'ARG NGINX_IMAGE=nginxinc/nginx-unprivileged:alpine'),
  ],
  [
    'web',
    'the privileged nginx image',
    replace(/^ARG NGINX_IMAGE=.*$/m, 'ARG NGINX_IMAGE=nginx:1.28.0-alpine'),
  ],
  ['web', 'the web image switched to root', replace(/^USER 101$/m, 'USER root')],
  ['web', 'no healthcheck', replace(/^HEALTHCHECK [^\n]*\\\n[^\n]*\n/m, '')],
  [
    'web',
    "the web app's sources",
    replace(
      'COPY --from=build /app/apps/web/dist /usr/share/nginx/html',
      'COPY --from=build /app/apps/web /usr/share/nginx/html',
    ),
  ],
  [
    'web',
    'the app copied away from WEB_ROOT',
    replace(
      'COPY --from=build /app/apps/web/dist /usr/share/nginx/html',
      'COPY --from=build /app/apps/web/dist /srv/www',
    ),
  ],
  [
    'web',
    'render.sh not executable',
    replace('COPY --chmod=0755 infra/web/render.sh', 'COPY infra/web/render.sh'),
  ],
  [
    'web',
    'nginx started on its default configuration',
    replace(
      'CMD ["nginx", "-c", "/tmp/vault-web/nginx.conf", "-g", "daemon off;"]',
      'CMD ["nginx", "-g", "daemon off;"]',
    ),
  ],
  [
    'web',
    'node_modules in the web image',
    replace(
      'COPY --from=build /app/apps/web/dist /usr/share/nginx/html',
      'COPY --from=build /app/apps/web/dist /usr/share/nginx/html\nCOPY --from=prod-deps /app/node_modules /usr/share/nginx/node_modules',
    ),
  ],
  ['backup', 'no PostgreSQL client tools', replace('postgresql-client-15', 'curl')],
  [
    'backup',
    "a migrating service's build left out",
    replace('COPY --from=build /app/apps/notes/dist apps/notes/dist\n', ''),
  ],
  [
    'backup',
    "the backup's tests copied",
    replace(
      'scripts/lib/backup/restore.mjs scripts/lib/backup/',
      'scripts/lib/backup/restore.mjs scripts/lib/backup/manifest.test.mjs scripts/lib/backup/',
    ),
  ],
  [
    'backup',
    'another script copied',
    replace(
      'COPY scripts/lib/util.mjs scripts/lib/',
      'COPY scripts/lib/util.mjs scripts/lib/stack.mjs scripts/lib/',
    ),
  ],
  [
    'backup',
    'the backup running as root',
    replace('USER node\nCMD ["node", "scripts/backup.mjs"]', 'CMD ["node", "scripts/backup.mjs"]'),
  ],
  [
    'test-code',
    "the web app's sources in the web image",
    replace(
      'COPY --from=build /app/apps/web/dist /usr/share/nginx/html',
      'COPY --from=build /app/apps/web/src /usr/share/nginx/html',
    ),
  ],
];
for (const [id, what, mutate, readTsconfig] of MUTATIONS) {
  check(`the Dockerfile check "${id}" catches: ${what}`, () => {
    const text = mutate ? mutate(dockerfileText) : dockerfileText;
    const problems = DOCKER_CHECKS[id](text, dockerCtx(readTsconfig));
    if (!problems.length) throw new Error('not caught');
    if (process.env.VAULT_DEPLOY_VERBOSE) console.log(`      ${problems.join('\n      ')}`);
  });
}
for (const id of Object.keys(DOCKER_CHECKS))
  check(`the Dockerfile check "${id}" is exercised by a planted mistake`, () => {
    if (!MUTATIONS.some(([m]) => m === id)) throw new Error('no planted mistake for it');
  });

// ── docker-compose.yml against the services (compose-check.mjs) ─────────────────────────
const COMPOSE_TITLES = {
  services: 'every service of `npm start` runs in compose, on its image, after its migration',
  env: "every variable set for a service is one of that service's (apps/<svc>/README.md)",
  rpc: 'RPC services listen on 0.0.0.0; their callers name the service and port that runs each peer',
  hosts: 'every other *_HOST names a compose service or 0.0.0.0',
  web: 'the web tier (nginx) is the one way in: the gateway behind it, trusting it, unpublished',
  health: 'a service with HEALTH_PORT has a healthcheck asking its readiness',
  hardening:
    'long-running services have a memory limit and a healthcheck; our containers a read-only root, no capabilities, no new privileges',
};
for (const [id, title] of Object.entries(COMPOSE_TITLES))
  check(`docker-compose.yml: ${title}`, () => {
    const problems = COMPOSE_CHECKS[id](compose);
    if (problems.length) throw new Error(problems.join('\n'));
  });
for (const [id, what, mutate] of COMPOSE_MUTATIONS)
  check(`the compose check "${id}" catches: ${what}`, () => {
    const planted = JSON.parse(JSON.stringify(compose));
    mutate(planted);
    if (!COMPOSE_CHECKS[id](planted).length) throw new Error('not caught');
  });
for (const id of Object.keys(COMPOSE_CHECKS))
  check(`the compose check "${id}" is exercised by a planted mistake`, () => {
    if (!COMPOSE_MUTATIONS.some(([m]) => m === id)) throw new Error('no planted mistake for it');
  });

check('the gateway starts after the services it calls; only the public ports are published', () => {
  const s = compose.services;
  for (const svc of ['auth', 'notes', 'files', 'admin']) {
    if (!s.gateway.depends_on[svc]) throw new Error(`the gateway must start after ${svc}`);
  }
  if (!s.web?.ports?.length) throw new Error('the web tier must be published');
  // The web tier (nginx, which proxies /api to the gateway); MinIO's API too: browsers PUT/GET
  // presigned URLs on it directly. Mailpit's web UI only on the host's loopback (recovery mail
  // of a local install).
  const mayPublish = ['web', 'minio', 'mailpit'];
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

check('compose refuses to start without the passwords .env must set (no default password)', () => {
  for (const name of Object.keys(REQUIRED_ENV)) {
    const { [name]: _unset, ...rest } = REQUIRED_ENV;
    const res = composeConfig(composeFile, rest);
    if (res.status === 0 || !res.stderr.includes(name)) throw new Error(`compose started without ${name}`);
  }
});

// What compose reads from .env is documented in .env.example (a commented-out line counts).
const composeVariables = (text) =>
  new Set([...text.matchAll(/(?<!\$)\$\{([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]));
const exampleProblems = (composeText, exampleText) =>
  [...composeVariables(composeText)].filter((v) => !new RegExp(`^#? ?${v}=`, 'm').test(exampleText));
const envExample = readFileSync(join(root, '.env.example'), 'utf8');
check('.env.example documents every variable docker-compose.yml reads', () => {
  const missing = exampleProblems(readFileSync(composeFile, 'utf8'), envExample);
  if (missing.length) throw new Error(`not in .env.example: ${missing.join(', ')}`);
});
check('the .env.example check catches: a variable compose reads but .env.example leaves out', () => {
  if (!exampleProblems('x: ${VAULT_UNDOCUMENTED:-1}', envExample).length) throw new Error('not caught');
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

// ── the web tier's nginx configuration (infra/web, web-check.mjs) ────────────────────────
// Rendered by its own render.sh, tested by Debian's `nginx -t`, and compared with the gateway's
// own code (read from source): headers, caching, the /api proxy, body limits, /env-config.js.
const gateway = await gatewayTruth();
const webTruth = { ...gateway, headers: await gateway.headers(CHECK_ENV), csp: gateway.csp(CHECK_ENV) };
const rendered = render(CHECK_ENV);
const renderedDirs = [rendered.dir];
const WEB_TITLES = {
  syntax: "Debian's nginx accepts the rendered configuration (nginx -t)",
  headers: "files nginx serves carry exactly the gateway's security headers (its helmet, CSP included)",
  caching:
    'index.html and /env-config.js no-store, hashed assets immutable, SPA fallback, 404 for missing files',
  proxy: "/api goes to the gateway unbuffered, with the client's address, scheme and host; unprivileged",
  limits: 'body limits and timeouts let through what the gateway accepts (100 MB files, 16 MiB parts)',
};
check('render.sh renders the web tier from the environment', () => {
  if (rendered.status !== 0) throw new Error(rendered.stderr || `exit ${rendered.status}`);
});
for (const [id, title] of Object.entries(WEB_TITLES))
  check(`infra/web: ${title}`, () => {
    if (rendered.status !== 0) throw new Error('not rendered');
    const problems = WEB_CHECKS[id](rendered, webTruth);
    if (problems.length) throw new Error(problems.join('\n'));
  });
for (const [id, what, mutate] of WEB_MUTATIONS)
  check(`the web check "${id}" catches: ${what}`, () => {
    const planted = { ...rendered, files: mutate(rendered.files) };
    const problems = WEB_CHECKS[id](planted, webTruth);
    if (!problems.length) throw new Error('not caught');
    if (process.env.VAULT_DEPLOY_VERBOSE) console.log(`      ${problems.join('\n      ')}`);
  });
for (const id of Object.keys(WEB_CHECKS))
  check(`the web check "${id}" is exercised by a planted mistake`, () => {
    if (!WEB_MUTATIONS.some(([m]) => m === id)) throw new Error('no planted mistake for it');
  });
for (const env of GOOD_RENDER_ENV) {
  const r = render(env);
  renderedDirs.push(r.dir);
  const csp = (await gateway.headers(env))['content-security-policy'];
  check(`render.sh with ${JSON.stringify(env)}: the gateway's /env-config.js and CSP`, () => {
    if (r.status !== 0) throw new Error(r.stderr);
    if (r.files['env-config.js'] !== gateway.webConfig(env))
      throw new Error(`${r.files['env-config.js']} is not the gateway's ${gateway.webConfig(env)}`);
    if (!r.files['security-headers.conf'].includes(`Content-Security-Policy "${csp}"`))
      throw new Error(`the CSP is not the gateway's ${csp}`);
  });
}
for (const [name, env, gatewayRefuses] of BAD_RENDER_ENV) {
  const r = render(env);
  renderedDirs.push(r.dir);
  check(
    `render.sh refuses ${name}=${JSON.stringify(Object.values(env)[0])}${gatewayRefuses ? ', as the gateway does' : ''}`,
    () => {
      if (r.status === 0) throw new Error('rendered anyway');
      if (!r.stderr.includes(name)) throw new Error(`the error does not name ${name}: ${r.stderr}`);
      if (gatewayRefuses) {
        let refused = false;
        try {
          gateway.webConfig(env);
          gateway.csp(env);
        } catch {
          refused = true;
        }
        if (!refused) throw new Error(`the gateway accepts ${name}=${Object.values(env)[0]}: they disagree`);
      }
    },
  );
}
for (const dir of renderedDirs) rmSync(dir, { recursive: true, force: true });

finish('deploy');
