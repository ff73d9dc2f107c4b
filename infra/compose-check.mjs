// Checks of docker-compose.yml against the services it runs (validate.mjs runs them, and plants a
// mistake for each to prove it bites). Each takes the parsed compose file (merge keys resolved)
// and returns the problems found; empty: passed.
import { SERVICES } from '../scripts/lib/stack.mjs';
import { documentedVariables } from './checks.mjs';

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
      const known = documentedVariables(app);
      for (const name of Object.keys(envOf(def)))
        if (!known.has(name)) out.push(`${svc}: ${name} is not a variable of ${app} (apps/${app}/README.md)`);
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
  ['health', "admin's healthcheck removed", del('services.admin.healthcheck')],
  ['health', 'a healthcheck on another port', set('services.admin.environment.HEALTH_PORT', '9091')],
];
