// Offline checks of the web tier's nginx configuration (infra/web), run by infra/validate.mjs and
// proved by a planted mistake each: the configuration render.sh writes is tested by Debian's
// `nginx -t`, and compared with what the gateway itself does, read from the gateway's own source
// (bundled in memory with esbuild, so no build is needed): the security headers its helmet sends,
// the hashed-asset pattern of its SPA route, its body limits and its /env-config.js.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../checks.mjs';

export const WEB_DIR = join(root, 'infra', 'web');
const RENDERED = ['nginx.conf', 'security-headers.conf', 'proxy.conf', 'env-config.js'];

/** Debian's nginx (docs/operations.md "Toolchain on the test machines"). */
export const NGINX = process.env.NGINX_BIN ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

// ── the gateway's own code, loaded from source ───────────────────────────────────────────────

/** Bundles one TypeScript module of the workspace (its @vault/* imports included) and loads it. */
async function loadSource(file) {
  const { build } = await import('esbuild');
  const externals = {
    name: 'externals',
    setup(b) {
      // node_modules stay outside the bundle; @vault/* resolve to their sources by tsconfig paths.
      b.onResolve({ filter: /^[^./]/ }, (a) =>
        a.path.startsWith('@vault/') ? undefined : { path: a.path, external: true },
      );
    },
  };
  const out = await build({
    entryPoints: [join(root, file)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    plugins: [externals],
    write: false,
    logLevel: 'error',
    tsconfig: join(root, 'tsconfig.base.json'),
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(
    module,
    module.exports,
    createRequire(join(root, file)),
  );
  return module.exports;
}

/**
 * What the gateway does, from its sources: `headers(env)` (the headers its helmet and hooks put
 * on a web-app answer for that environment), `webConfig(env)` (its /env-config.js, or the error
 * its configuration gives), the hashed-asset pattern and the body limits.
 */
export async function gatewayTruth() {
  const require = createRequire(join(root, 'apps', 'gateway', 'package.json'));
  require('reflect-metadata');
  const Fastify = require('fastify');
  const config = await loadSource('apps/gateway/src/config/gateway.config.ts');
  const security = await loadSource('apps/gateway/src/security/security-headers.ts');
  const webConfig = await loadSource('apps/gateway/src/routes/web-config/web-config.route.ts');
  const multipart = await loadSource('apps/gateway/src/routes/files/cloudinary-multipart.upload.ts');
  const contracts = await loadSource('libs/contracts/src/files/file.schema.ts');
  const spa = readFileSync(join(root, 'apps/gateway/src/static/spa.ts'), 'utf8');
  const hashed = /const HASHED_ASSET = \/(.+)\/;/.exec(spa)?.[1];
  if (!hashed) throw new Error('HASHED_ASSET not found in apps/gateway/src/static/spa.ts');
  /** The gateway's schema over `env`; its `warning < timeout` rule as loadGatewayConfig adds it. */
  const parse = (env) => {
    const e = config.gatewayEnvSchema.parse(env);
    if (e.WEB_INACTIVITY_WARNING_MS >= e.WEB_INACTIVITY_TIMEOUT_MS)
      throw new Error('WEB_INACTIVITY_WARNING_MS: must be less than WEB_INACTIVITY_TIMEOUT_MS');
    return e;
  };
  return {
    async headers(env = {}) {
      const e = parse(env);
      const app = Fastify();
      await security.registerSecurityHeaders(app, {
        connectOrigins: [e.S3_PUBLIC_ENDPOINT, e.CLOUDINARY_UPLOAD_ORIGIN].filter(Boolean),
      });
      app.get('/index.html', async () => 'page');
      await app.ready();
      const res = await app.inject({ method: 'GET', url: '/index.html' });
      await app.close();
      const transport = ['content-type', 'content-length', 'date', 'connection', 'cache-control'];
      return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !transport.includes(name)));
    },
    webConfig(env = {}) {
      const e = parse(env);
      return webConfig.renderWebConfigScript({
        inactivityTimeoutMs: e.WEB_INACTIVITY_TIMEOUT_MS,
        inactivityWarningMs: e.WEB_INACTIVITY_WARNING_MS,
      });
    },
    /** cspString(cspDirectives(...)) for `env`'s storage origins, as the gateway's config gives them. */
    csp(env = {}) {
      const e = parse(env);
      const connectOrigins = [e.S3_PUBLIC_ENDPOINT, e.CLOUDINARY_UPLOAD_ORIGIN].filter(Boolean);
      return security.cspString(security.cspDirectives({ connectOrigins }));
    },
    hashedAsset: hashed,
    limits: {
      json: parse({}).BODY_LIMIT_BYTES,
      part: contracts.UPLOAD_PART_MAX_BYTES,
      multipart: multipart.MULTIPART_MAX_BYTES,
    },
  };
}

// ── rendering and nginx -t ───────────────────────────────────────────────────────────────────

/**
 * Runs render.sh with `env` (and nothing else of this process's environment but PATH) into a new
 * temporary folder. Returns {status, stderr, dir, files}; `files` maps each rendered name to its text.
 */
export function render(env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'vault-web-check-'));
  const res = spawnSync('sh', [join(WEB_DIR, 'render.sh')], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      WEB_RUNTIME_DIR: dir,
      WEB_ROOT: join(root, 'apps', 'web', 'dist'),
      GATEWAY_UPSTREAM: '127.0.0.1:8080',
      WEB_ACCESS_LOG: 'off',
      ...env,
    },
  });
  const files = {};
  if (res.status === 0) for (const name of RENDERED) files[name] = readFileSync(join(dir, name), 'utf8');
  return { status: res.status, stderr: res.stderr, dir, files };
}

/** `nginx -t` on a rendered folder, with `files` (name → text) written over its own first. */
export function nginxTest(dir, files = {}) {
  const copy = mkdtempSync(join(tmpdir(), 'vault-web-t-'));
  try {
    cpSync(dir, copy, { recursive: true });
    for (const [name, text] of Object.entries(files))
      writeFileSync(join(copy, name), text.replaceAll(dir, copy));
    // Each rendered file names its folder; the copy must name the copy.
    for (const name of readdirSync(copy).filter((n) => n.endsWith('.conf')))
      writeFileSync(join(copy, name), readFileSync(join(copy, name), 'utf8').replaceAll(dir, copy));
    const res = spawnSync(NGINX, ['-t', '-q', '-e', 'stderr', '-c', join(copy, 'nginx.conf')], {
      encoding: 'utf8',
    });
    if (res.error) throw new Error(`${NGINX} cannot run (install Debian's nginx): ${res.error.message}`);
    return { ok: res.status === 0, output: `${res.stderr}${res.stdout}`.trim() };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

// ── a small reader of nginx's configuration syntax ───────────────────────────────────────────

/** Directives as {name, args, block?}; `include` of a rendered file is replaced by its directives. */
export function parseNginx(text, files = {}, dir = '') {
  const tokens = [];
  const re = /#[^\n]*|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([{};])|([^\s{};"'#]+)/g;
  for (const m of text.matchAll(re)) {
    if (m[0].startsWith('#')) continue;
    tokens.push(m[3] ? { punct: m[3] } : { word: m[1] ?? m[2] ?? m[4] });
  }
  let i = 0;
  const block = () => {
    const out = [];
    let words = [];
    while (i < tokens.length) {
      const t = tokens[i++];
      if (t.word !== undefined) words.push(t.word);
      else if (t.punct === ';') {
        const [name, ...args] = words;
        words = [];
        const inc =
          name === 'include' && args[0]?.startsWith(`${dir}/`) ? args[0].slice(dir.length + 1) : null;
        if (inc && files[inc] !== undefined) out.push(...parseNginx(files[inc], files, dir));
        else out.push({ name, args });
      } else if (t.punct === '{') {
        const [name, ...args] = words;
        words = [];
        out.push({ name, args, block: block() });
      } else return out;
    }
    return out;
  };
  return block();
}

const all = (nodes, name) => nodes.filter((n) => n.name === name);
const one = (nodes, name) => all(nodes, name)[0];
/** The locations of the server block, nested ones included, as {args, block}. */
function locations(conf) {
  const http = one(conf, 'http')?.block ?? [];
  const server = one(http, 'server')?.block ?? [];
  const out = [];
  const walk = (nodes) => {
    for (const n of all(nodes, 'location')) {
      out.push(n);
      walk(n.block);
    }
  };
  walk(server);
  return { http, server, locations: out };
}
const location = (locs, ...args) => locs.find((l) => l.args.join(' ') === args.join(' '));
const headersOf = (block) =>
  Object.fromEntries(all(block, 'add_header').map((d) => [d.args[0].toLowerCase(), d.args[1]]));
const directive = (block, name) => one(block, name)?.args.join(' ');
const proxied = (block) => all(block, 'proxy_pass').length > 0;

/** Sizes such as 2m, 512k, 1g, 100 in bytes. */
const bytes = (v) => {
  const m = /^(\d+)([kmg]?)$/i.exec(v ?? '');
  if (!m) return NaN;
  return Number(m[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()];
};
const seconds = (v) => {
  const m = /^(\d+)(ms|s|m)?$/.exec(v ?? '');
  if (!m) return NaN;
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, undefined: 1 }[m[2]];
};

// ── the checks: each takes the rendered files and the gateway's truth, returns problems ─────

/** The environment the checks render with: storage origins, to see them in the CSP. */
export const CHECK_ENV = {
  S3_PUBLIC_ENDPOINT: 'https://S3.Example.com:443/vault-files',
  CLOUDINARY_UPLOAD_ORIGIN: 'https://api.cloudinary.com',
};

export const WEB_CHECKS = {
  /** Debian's nginx accepts the configuration (`nginx -t`). */
  syntax(r) {
    const { ok, output } = nginxTest(r.dir, r.files);
    return ok ? [] : [`nginx -t: ${output}`];
  },

  /** Every file nginx serves carries exactly the gateway's security headers. */
  headers(r, truth) {
    const out = [];
    const expected = truth.headers;
    const got = headersOf(parseNginx(r.files['security-headers.conf']));
    for (const [name, value] of Object.entries(expected))
      if (got[name] === undefined) out.push(`${name} is missing (the gateway sends "${value}")`);
      else if (got[name] !== value) out.push(`${name} is "${got[name]}", the gateway sends "${value}"`);
    for (const name of Object.keys(got))
      if (expected[name] === undefined) out.push(`${name} is set, the gateway sends no such header`);
    // The directives themselves (helmet joins them with ';', cspString with '; ').
    const csp = (got['content-security-policy'] ?? '').split(';').join('; ');
    if (csp !== truth.csp) out.push(`the CSP is not cspString(cspDirectives(...)): ${truth.csp}`);
    const { locations: locs } = locations(parseNginx(r.files['nginx.conf'], r.files, r.dir));
    // add_header in a location drops every inherited one: each serving location names them all.
    for (const l of locs)
      if (!proxied(l.block) && !all(l.block, 'location').length) {
        const h = headersOf(l.block);
        for (const name of Object.keys(expected))
          if (h[name] === undefined) out.push(`location ${l.args.join(' ')} does not send ${name}`);
      }
    return out;
  },

  /** Caching of each kind of answer, the SPA fallback, and 404s for missing files. */
  caching(r, truth) {
    const out = [];
    const { locations: locs } = locations(parseNginx(r.files['nginx.conf'], r.files, r.dir));
    const cache = (l) => headersOf(l?.block ?? [])['cache-control'];
    for (const path of ['/index.html', '/env-config.js']) {
      const l = location(locs, '=', path);
      if (!l) out.push(`no location = ${path}`);
      else if (cache(l) !== 'no-store')
        out.push(`${path} is sent with Cache-Control ${cache(l)}, not no-store`);
    }
    const assets = location(locs, '^~', '/assets/');
    const hashed = locs.find(
      (l) => l.args[0] === '~' && l.args[1] === truth.hashedAsset.replace(/\(\?:/g, '('),
    );
    if (!hashed) out.push(`no location matches hashed assets as the gateway does (${truth.hashedAsset})`);
    else if (!assets?.block.includes(hashed)) out.push('the hashed-asset location is not inside /assets/');
    else if (cache(hashed) !== 'public, max-age=31536000, immutable')
      out.push(`hashed assets are sent with Cache-Control ${cache(hashed)}, not a year immutable`);
    for (const l of [hashed, assets, ...locs.filter((x) => x.args[0] === '~' && x.args[1].startsWith('\\.'))])
      if (l && directive(l.block, 'try_files') !== '$uri =404')
        out.push(`location ${l.args.join(' ')} must answer 404 for a missing file (try_files $uri =404)`);
    const spa = location(locs, '/');
    if (directive(spa?.block ?? [], 'try_files') !== '$uri /index.html')
      out.push('location / does not fall back to /index.html (try_files $uri /index.html)');
    for (const path of ['= /api', '^~ /api/'])
      if (!proxied(location(locs, ...path.split(' '))?.block ?? []))
        out.push(`location ${path} is not proxied to the gateway: /api would fall through to the app`);
    return out;
  },

  /** /api is proxied to the gateway, streamed, with the client's address and the scheme and host. */
  proxy(r) {
    const out = [];
    const conf = parseNginx(r.files['nginx.conf'], r.files, r.dir);
    const { http, server, locations: locs } = locations(conf);
    const api = locs.filter((l) => l.args.at(-1).startsWith('/api'));
    if (!api.length) out.push('no /api location');
    for (const l of api) {
      const at = `location ${l.args.join(' ')}`;
      const want = {
        proxy_pass: 'http://vault_gateway',
        proxy_http_version: '1.1',
        proxy_request_buffering: 'off',
        proxy_buffering: 'off',
        gzip: 'off',
      };
      for (const [name, value] of Object.entries(want))
        if (directive(l.block, name) !== value)
          out.push(`${at}: ${name} is ${directive(l.block, name)}, not ${value}`);
      const set = Object.fromEntries(
        all(l.block, 'proxy_set_header').map((d) => [d.args[0].toLowerCase(), d.args[1]]),
      );
      const headers = {
        host: '$http_host',
        'x-forwarded-for': '$proxy_add_x_forwarded_for',
        'x-forwarded-proto': '$scheme',
        'x-forwarded-host': '$http_host',
        connection: '',
      };
      for (const [name, value] of Object.entries(headers))
        if (set[name] !== value) out.push(`${at}: proxy_set_header ${name} is ${set[name]}, not "${value}"`);
      if (all(l.block, 'add_header').length)
        out.push(`${at}: adds headers; the gateway's own must pass as they are`);
    }
    if (directive(http, 'server_tokens') !== 'off') out.push('server_tokens is not off');
    if (all(conf, 'user').length) out.push('a `user` directive: the image runs unprivileged');
    const runtime = r.dir;
    for (const name of ['pid'])
      if (!directive(conf, name)?.startsWith(`${runtime}/`))
        out.push(`${name} is not under the runtime folder`);
    for (const name of [
      'client_body_temp_path',
      'proxy_temp_path',
      'fastcgi_temp_path',
      'uwsgi_temp_path',
      'scgi_temp_path',
    ])
      if (!directive(http, name)?.startsWith(`${runtime}/`))
        out.push(`${name} is not under the runtime folder`);
    if (!/^\S+:\d+$/.test(directive(one(http, 'upstream')?.block ?? [], 'server') ?? ''))
      out.push('the upstream names no gateway host:port');
    const listen = directive(server, 'listen');
    if (!listen || /\b(80|443)$/.test(listen)) out.push(`listen ${listen}: an unprivileged port is needed`);
    return out;
  },

  /** Body limits and timeouts let through what the gateway accepts. */
  limits(r, truth) {
    const out = [];
    const { server, locations: locs } = locations(parseNginx(r.files['nginx.conf'], r.files, r.dir));
    const base = bytes(directive(server, 'client_max_body_size') ?? '1m');
    if (!(base >= truth.limits.json))
      out.push(
        `client_max_body_size ${base} is below the gateway's JSON limit (BODY_LIMIT_BYTES ${truth.limits.json})`,
      );
    for (const path of ['^~ /api/files/blob/', '= /api/files/cloudinary/upload']) {
      const l = location(locs, ...path.split(' '));
      const size = bytes(directive(l?.block ?? [], 'client_max_body_size') ?? String(base));
      for (const [what, need] of [
        ['an upload part', truth.limits.part],
        [
          'the largest upload (multipart Cloudinary: 100 MB encrypted plus its fields)',
          truth.limits.multipart,
        ],
      ])
        if (!(size >= need))
          out.push(`location ${path}: client_max_body_size ${size} is below ${what} (${need})`);
    }
    const api = location(locs, '^~', '/api/')?.block ?? [];
    for (const name of ['proxy_read_timeout', 'proxy_send_timeout'])
      if (!(seconds(directive(api, name) ?? '60s') > 60))
        out.push(
          `${name} ${directive(api, name) ?? 'default 60s'} gives the gateway no more than its own 60 s`,
        );
    return out;
  },
};

const edit = (name, from, to) => (files) => {
  if (!(typeof from === 'string' ? files[name].includes(from) : from.test(files[name])))
    throw new Error(`the planted mistake does not apply: ${from} is not in ${name}`);
  return { ...files, [name]: files[name].replace(from, to) };
};

/** Planted mistakes, [check, what, mutate(files)]: each must be caught by the check named. */
export const WEB_MUTATIONS = [
  ['syntax', 'a misspelt directive', edit('proxy.conf', 'proxy_buffering off;', 'proxy_bufering off;')],
  ['syntax', 'a missing semicolon', edit('nginx.conf', 'server_tokens off;', 'server_tokens off')],
  [
    'syntax',
    'a bad value',
    edit('proxy.conf', 'proxy_request_buffering off;', 'proxy_request_buffering no;'),
  ],
  ['headers', 'a CSP that drifted', edit('security-headers.conf', " 'wasm-unsafe-eval'", '')],
  [
    'headers',
    'the storage origin left out of connect-src',
    edit('security-headers.conf', ' https://s3.example.com', ''),
  ],
  [
    'headers',
    'X-Frame-Options dropped',
    edit('security-headers.conf', 'add_header X-Frame-Options "DENY" always;', ''),
  ],
  [
    'headers',
    'a header the gateway does not send',
    edit(
      'security-headers.conf',
      'add_header X-XSS',
      'add_header X-Powered-By "nginx" always;\nadd_header X-XSS',
    ),
  ],
  [
    'headers',
    'a location that loses the inherited headers',
    edit('nginx.conf', 'location = /index.html {\n      include', 'location = /index.html {\n      #'),
  ],
  [
    'caching',
    'index.html cached',
    edit(
      'nginx.conf',
      'add_header Cache-Control "no-store" always;\n    }\n    # The deployment',
      'add_header Cache-Control "no-cache" always;\n    }\n    # The deployment',
    ),
  ],
  [
    'caching',
    'hashed assets not immutable',
    edit('nginx.conf', 'public, max-age=31536000, immutable', 'public, max-age=31536000'),
  ],
  [
    'caching',
    'a missing asset answered with the app',
    edit('nginx.conf', 'try_files $uri =404;\n      }', 'try_files $uri /index.html;\n      }'),
  ],
  ['caching', 'no SPA fallback', edit('nginx.conf', 'try_files $uri /index.html;', 'try_files $uri =404;')],
  [
    'caching',
    '/api falling through to the app',
    edit('nginx.conf', 'location = /api {', 'location = /api-old {'),
  ],
  [
    'proxy',
    'request buffering on',
    edit('proxy.conf', 'proxy_request_buffering off;', 'proxy_request_buffering on;'),
  ],
  ['proxy', 'response buffering on', edit('proxy.conf', 'proxy_buffering off;', 'proxy_buffering on;')],
  [
    'proxy',
    "the client's address not forwarded",
    edit('proxy.conf', 'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;', ''),
  ],
  [
    'proxy',
    'the client may set X-Forwarded-Host',
    edit('proxy.conf', 'proxy_set_header X-Forwarded-Host $http_host;', ''),
  ],
  ['proxy', 'server tokens on', edit('nginx.conf', 'server_tokens off;', 'server_tokens on;')],
  [
    'proxy',
    'a user directive',
    edit('nginx.conf', 'worker_processes auto;', 'user nginx;\nworker_processes auto;'),
  ],
  [
    'proxy',
    'the pid file outside the runtime folder',
    edit('nginx.conf', /^pid .*$/m, 'pid /var/run/nginx.pid;'),
  ],
  [
    'limits',
    'upload locations limited to one part',
    edit('nginx.conf', 'client_max_body_size 102m;', 'client_max_body_size 16m;'),
  ],
  [
    'limits',
    'JSON bodies cut below the gateway limit',
    edit('nginx.conf', 'client_max_body_size 2m;', 'client_max_body_size 1m;'),
  ],
  ['limits', "nginx's default read timeout", edit('proxy.conf', 'proxy_read_timeout 300s;', '')],
];

/**
 * Values render.sh must refuse, each naming the variable; the gateway refuses the same values
 * for its own variables (the first four), so one environment fits both.
 */
export const BAD_RENDER_ENV = [
  ['WEB_INACTIVITY_TIMEOUT_MS', { WEB_INACTIVITY_TIMEOUT_MS: 'ten minutes' }, true],
  ['WEB_INACTIVITY_TIMEOUT_MS', { WEB_INACTIVITY_TIMEOUT_MS: '999' }, true],
  ['WEB_INACTIVITY_WARNING_MS', { WEB_INACTIVITY_WARNING_MS: '600000' }, true],
  ['S3_PUBLIC_ENDPOINT', { S3_PUBLIC_ENDPOINT: 'https://user:pw@s3.example.com' }, true],
  ['S3_PUBLIC_ENDPOINT', { S3_PUBLIC_ENDPOINT: 'https://s3.example.com;" always; add_header X "' }, false],
  ['CLOUDINARY_UPLOAD_ORIGIN', { CLOUDINARY_UPLOAD_ORIGIN: 'ftp://api.cloudinary.com' }, true],
  ['GATEWAY_UPSTREAM', { GATEWAY_UPSTREAM: 'gateway:8080; include /etc/passwd' }, false],
  ['LISTEN_PORT', { LISTEN_PORT: '80 default_server' }, false],
  ['WEB_ROOT', { WEB_ROOT: '/srv/web root' }, false],
  ['WEB_ROOT', { WEB_ROOT: '/nonexistent' }, false],
];

/** Values render.sh must accept, with the /env-config.js the gateway answers for each. */
export const GOOD_RENDER_ENV = [
  {},
  { WEB_INACTIVITY_TIMEOUT_MS: '900000', WEB_INACTIVITY_WARNING_MS: '0120000' },
  { S3_PUBLIC_ENDPOINT: 'HTTP://127.0.0.1:9000', CLOUDINARY_UPLOAD_ORIGIN: 'http://127.0.0.1:9000/' },
  { S3_PUBLIC_ENDPOINT: 'http://minio.local:80/bucket?x=1' },
];
