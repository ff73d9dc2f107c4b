// Checks of docker-compose.yml against the services it runs (validate.mjs runs them, and plants a
// mistake for each to prove it bites). Each takes the parsed compose file (merge keys resolved)
// and returns the problems found; empty: passed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICES } from '../scripts/lib/stack.mjs';
import { documentedVariables, root } from './checks.mjs';

/** `vault-<app>:tag` → app; undefined for images that are not ours (postgres, minio, ...). */
const appOf = (def) => /^vault-([a-z-]+):/.exec(def.image ?? '')?.[1];
const appOfMain = (main) => main.split('/')[1];
const commandOf = (def) => [def.command ?? []].flat().join(' ');
/** The compose services that run an app's server: its image with the image's own CMD or main.js. */
const runners = (services, app) =>
  Object.entries(services).filter(
    ([, d]) => appOf(d) === app && (!d.command || commandOf(d).includes(`apps/${app}/dist/main.js`)),
  );
const envOf = (def) => def.environment ?? {};

/**
 * The variables of one of our images: an app's README "Configuration" table, or for the web tier
 * (vault-web, nginx) the table of infra/web/README.md and for the backup container that of
 * docs/backup.md, read the same way.
 */
function variablesOf(app) {
  const own = { web: ['infra', 'web', 'README.md'], backup: ['docs', 'backup.md'] }[app];
  if (!own) return documentedVariables(app);
  const file = join(root, ...own);
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const section = text.split(/^## /m).find((s) => s.startsWith('Configuration')) ?? '';
  return new Set(
    section
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .flatMap((l) => [...l.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])),
  );
}
/** The compose service that builds the web tier (target web), as [name, definition]. */
const webOf = (services) =>
  Object.entries(services).find(([, d]) => d.build?.target === 'web' || appOf(d) === 'web');
/** `host:port` → [host, port]. */
const hostPort = (v) => /^(.+):(\d+)$/.exec(String(v ?? ''))?.slice(1) ?? [];
/** `AUTH_RPC_HOST` → `auth`: the app whose RPC listener a variable names. */
const rpcApp = (variable) => /^([A-Z]+)_RPC_HOST$/.exec(variable)?.[1].toLowerCase();

export const COMPOSE_CHECKS = {
  /** Every service `npm start` runs (scripts/lib/stack.mjs) runs here too, after its migration. */
  services(compose) {
    const s = compose.services;
    const out = [];
    for (const { name, main, migrate } of SERVICES) {
      const app = appOfMain(main);
      const run = runners(s, app);
      if (run.length !== 1) {
        out.push(`${name}: ${run.length} compose services run apps/${app} (image vault-${app})`);
        continue;
      }
      const [svc, def] = run[0];
      if (!def.restart) out.push(`${svc}: no restart policy`);
      if (!migrate) continue;
      const mig = Object.entries(s).find(([, d]) => commandOf(d).includes(migrate));
      if (!mig) {
        out.push(`${svc}: no compose service runs ${migrate}`);
        continue;
      }
      const [migName, migDef] = mig;
      if (migDef.image !== def.image)
        out.push(`${migName} must run on ${svc}'s image (it holds apps/${app})`);
      if (migDef.depends_on?.postgres?.condition !== 'service_healthy')
        out.push(`${migName} must wait for postgres to be healthy`);
      if (def.depends_on?.[migName]?.condition !== 'service_completed_successfully')
        out.push(`${svc} must wait for ${migName} to complete`);
    }
    return out;
  },

  /** Every variable set for one of our images is one of that app's (apps/<app>/README.md). */
  env(compose) {
    const out = [];
    for (const [svc, def] of Object.entries(compose.services)) {
      const app = appOf(def);
      if (!app) continue;
      const known = variablesOf(app);
      const doc = { web: 'infra/web/README.md', backup: 'docs/backup.md' }[app] ?? `apps/${app}/README.md`;
      for (const name of Object.keys(envOf(def)))
        if (!known.has(name)) out.push(`${svc}: ${name} is not a variable of ${app} (${doc})`);
    }
    return out;
  },

  /**
   * RPC over TCP: a service listens on 0.0.0.0 (its default, 127.0.0.1, is unreachable from the
   * other containers), and every peer a service's README names is set to the compose service
   * that runs it, on the port that one listens on.
   */
  rpc(compose) {
    const s = compose.services;
    const out = [];
    for (const { main } of SERVICES) {
      const app = appOfMain(main);
      for (const [svc, def] of runners(s, app)) {
        const env = envOf(def);
        for (const variable of documentedVariables(app)) {
          const peer = rpcApp(variable);
          if (!peer) continue;
          const portVar = variable.replace(/_HOST$/, '_PORT');
          if (peer === app) {
            if (env[variable] !== '0.0.0.0') out.push(`${svc}: ${variable} is not 0.0.0.0 (unreachable)`);
            continue;
          }
          const target = s[env[variable]];
          if (!target || appOf(target) !== peer || !runners(s, peer).length) {
            out.push(`${svc}: ${variable}=${env[variable] ?? 'unset'} is not the service that runs ${peer}`);
            continue;
          }
          const listens = envOf(target)[portVar];
          if (env[portVar] === undefined || String(env[portVar]) !== String(listens))
            out.push(
              `${svc}: ${portVar}=${env[portVar] ?? 'unset'} but ${env[variable]} listens on ${listens}`,
            );
        }
      }
    }
    return out;
  },

  /** Any other `*_HOST` listens on 0.0.0.0 or names a compose service (clamd: `clamav`). */
  hosts(compose) {
    const out = [];
    for (const [svc, def] of Object.entries(compose.services))
      for (const [name, value] of Object.entries(envOf(def)))
        if (/_HOST$/.test(name) && !rpcApp(name) && value !== '0.0.0.0' && !compose.services[value])
          out.push(`${svc}: ${name}=${value} is no service of docker-compose.yml`);
    return out;
  },

  /**
   * The web tier (docs/operations.md "The web tier"): nginx in front of the gateway, the one way in
   * for browsers. It publishes the port it listens on; the gateway publishes none, trusts one proxy
   * (so rate limits see the client) and leaves the app to nginx; web starts once the gateway is
   * healthy, names it as its upstream, sends the gateway's CSP (the same storage origins), and runs
   * on a read-only filesystem with /tmp on tmpfs, a memory limit, a restart policy and a healthcheck.
   */
  web(compose) {
    const s = compose.services;
    const found = webOf(s);
    if (!found) return ['no service builds the web tier (build.target: web)'];
    const [name, web] = found;
    const out = [];
    const env = envOf(web);
    const listen = String(env.LISTEN_PORT ?? '8080');
    const published = (web.ports ?? []).map((p) => String(p).split(':').at(-1));
    if (!published.includes(listen)) out.push(`${name}: does not publish the port it listens on (${listen})`);
    const gateways = runners(s, 'gateway');
    if (gateways.length !== 1) return [...out, `${name}: no single gateway service to proxy to`];
    const [gwName, gw] = gateways[0];
    const gwEnv = envOf(gw);
    if (gw.ports?.length)
      out.push(`${gwName}: publishes ${gw.ports.join(', ')}; browsers must come through ${name}`);
    if (
      ['', 'false'].includes(
        String(gwEnv.TRUST_PROXY ?? 'false')
          .trim()
          .toLowerCase(),
      )
    )
      out.push(
        `${gwName}: TRUST_PROXY is ${gwEnv.TRUST_PROXY ?? 'unset'}: every client would share ${name}'s address (rate limits, security events)`,
      );
    if (String(gwEnv.SERVE_STATIC) !== 'false')
      out.push(`${gwName}: SERVE_STATIC is not false; ${name} serves the app`);
    const [host, port] = hostPort(env.GATEWAY_UPSTREAM ?? 'gateway:8080');
    if (host !== gwName || String(port) !== String(gwEnv.GATEWAY_PORT ?? '8080'))
      out.push(
        `${name}: GATEWAY_UPSTREAM=${env.GATEWAY_UPSTREAM} is not ${gwName}:${gwEnv.GATEWAY_PORT ?? '8080'}`,
      );
    if (web.depends_on?.[gwName]?.condition !== 'service_healthy')
      out.push(`${name}: must wait for ${gwName} to be healthy`);
    for (const v of ['S3_PUBLIC_ENDPOINT', 'CLOUDINARY_UPLOAD_ORIGIN'])
      if ((env[v] ?? '') !== (gwEnv[v] ?? ''))
        out.push(
          `${name}: ${v}=${env[v] ?? 'unset'} but the gateway has ${gwEnv[v] ?? 'unset'}: their CSPs differ`,
        );
    if (web.read_only !== true) out.push(`${name}: the root filesystem is not read_only`);
    if (![web.tmpfs ?? []].flat().some((t) => String(t).split(':')[0] === '/tmp'))
      out.push(`${name}: no tmpfs at /tmp (render.sh writes the configuration there)`);
    if (!web.mem_limit && !web.deploy?.resources?.limits?.memory) out.push(`${name}: no memory limit`);
    if (!web.restart) out.push(`${name}: no restart policy`);
    if (!web.healthcheck?.test) out.push(`${name}: no healthcheck`);
    return out;
  },

  /** A service with a probe listener (HEALTH_PORT) has a healthcheck asking it for readiness. */
  health(compose) {
    const out = [];
    for (const [svc, def] of Object.entries(compose.services)) {
      const port = envOf(def).HEALTH_PORT;
      if (port === undefined) continue;
      const test = [def.healthcheck?.test ?? []].flat().join(' ');
      if (!test.includes(`:${port}/health/ready`))
        out.push(`${svc}: HEALTH_PORT is ${port} but its healthcheck does not ask :${port}/health/ready`);
    }
    return out;
  },

  /**
   * Every service that keeps running (a restart policy) has a memory limit and a healthcheck;
   * every container of our images (vault-*) runs with a read-only root filesystem, no new
   * privileges and no capabilities, but keygen, which hands the key and file volumes to the node
   * user (chown needs CAP_CHOWN); the node services also wait for each other by health.
   */
  hardening(compose) {
    const out = [];
    for (const [svc, def] of Object.entries(compose.services)) {
      if (def.restart) {
        if (!def.mem_limit && !def.deploy?.resources?.limits?.memory) out.push(`${svc}: no memory limit`);
        if (!def.healthcheck?.test) out.push(`${svc}: no healthcheck`);
      }
      if (!/^vault-/.test(def.image ?? '')) continue;
      if (def.read_only !== true) out.push(`${svc}: the root filesystem is not read_only`);
      if (svc === 'keygen') continue;
      if (!(def.cap_drop ?? []).includes('ALL'))
        out.push(`${svc}: capabilities not dropped (cap_drop: [ALL])`);
      if (!(def.security_opt ?? []).some((o) => /^no-new-privileges(:true)?$/.test(o)))
        out.push(`${svc}: no-new-privileges not set`);
    }
    return out;
  },
};

const del = (path) => (c) => {
  const keys = path.split('.');
  const last = keys.pop();
  delete keys.reduce((o, k) => o[k], c)[last];
};
const set = (path, value) => (c) => {
  const keys = path.split('.');
  const last = keys.pop();
  keys.reduce((o, k) => o[k], c)[last] = value;
};

/** Planted mistakes, [check, what, mutate(compose)]: each must be caught by the check named. */
export const COMPOSE_MUTATIONS = [
  ['services', 'the admin service left out', del('services.admin')],
  ['services', 'the admin migration left out', del('services.migrate-admin')],
  ['services', 'admin not waiting for its migration', del('services.admin.depends_on.migrate-admin')],
  [
    'services',
    'the admin migration on another image',
    set('services.migrate-admin.image', 'vault-notes:local'),
  ],
  ['env', 'an unknown variable on admin', set('services.admin.environment.ADMIN_DEBUG', '1')],
  [
    'env',
    "another service's variable (the database on the gateway)",
    set('services.gateway.environment.DATABASE_URL', 'postgres://x'),
  ],
  ['rpc', 'admin listening on 127.0.0.1', del('services.admin.environment.ADMIN_RPC_HOST')],
  ['rpc', 'the gateway not pointed at admin', del('services.gateway.environment.ADMIN_RPC_HOST')],
  [
    'rpc',
    'the gateway on a port admin does not listen on',
    set('services.gateway.environment.ADMIN_RPC_PORT', '4005'),
  ],
  ['rpc', 'admin not pointed at auth', set('services.admin.environment.AUTH_RPC_HOST', 'notes')],
  ['hosts', 'admin asking a clamd that is not there', set('services.admin.environment.CLAMD_HOST', 'clamd')],
  ['web', 'the web tier left out', del('services.web')],
  ['web', 'the gateway published beside it', set('services.gateway.ports', ['8081:8080'])],
  ['web', 'web not published', del('services.web.ports')],
  ['web', 'the gateway not trusting its proxy', del('services.gateway.environment.TRUST_PROXY')],
  ['web', 'the gateway still serving the app', set('services.gateway.environment.SERVE_STATIC', 'true')],
  ['web', 'web proxying to another port', set('services.web.environment.GATEWAY_UPSTREAM', 'gateway:8081')],
  [
    'web',
    'web not waiting for a healthy gateway',
    set('services.web.depends_on.gateway.condition', 'service_started'),
  ],
  ['web', 'a CSP without the storage origin', del('services.web.environment.S3_PUBLIC_ENDPOINT')],
  ['web', 'a writable root filesystem', del('services.web.read_only')],
  ['web', 'no tmpfs for the rendered configuration', del('services.web.tmpfs')],
  ['web', 'no memory limit', del('services.web.mem_limit')],
  ['web', 'no healthcheck on web', del('services.web.healthcheck')],
  ['env', 'an unknown variable on web', set('services.web.environment.NGINX_WORKERS', '4')],
  ['health', "admin's healthcheck removed", del('services.admin.healthcheck')],
  ['health', 'a healthcheck on another port', set('services.admin.environment.HEALTH_PORT', '9091')],
  ['hardening', 'no memory limit on notes', del('services.notes.mem_limit')],
  ['hardening', 'no healthcheck on redis', del('services.redis.healthcheck')],
  ['hardening', 'a writable root filesystem for files', del('services.files.read_only')],
  ['hardening', 'the gateway keeping its capabilities', del('services.gateway.cap_drop')],
  ['hardening', 'the scan worker able to gain privileges', del('services.scan-worker.security_opt')],
];
