// The environment docker-compose.yml gives each of our services, mapped onto this machine (issue
// 16: "the services boot with exactly the environment that compose gives them, rendered from the
// compose file, hosts mapped to localhost"). Nothing is added or dropped but what the mapping
// needs, and every change is reported: compose service names become the local address of what
// stands in for them, their ports the local ports (each service's own listeners get free ports,
// since on one host they cannot all take 9090), the volumes' paths local folders, and the
// stand-ins' credentials (the local Postgres, s3rver) replace compose's.

/**
 * Our images' compose services that `docker compose up` starts, as `{svc, app, env, command}`: the
 * servers and their migrations (a service behind a profile, like `backup`, is run by hand).
 */
export function ourServices(compose) {
  return Object.entries(compose.services)
    .filter(([, def]) => !def.profiles?.length)
    .map(([svc, def]) => ({
      svc,
      app: /^vault-([a-z-]+):/.exec(def.image ?? '')?.[1],
      env: Object.fromEntries(Object.entries(def.environment ?? {}).map(([k, v]) => [k, String(v ?? '')])),
      command: def.command === undefined ? undefined : [def.command].flat().map(String),
    }))
    .filter((s) => s.app);
}

/** A server runs its image's main (no command, or `node apps/<app>/dist/main.js`); a job does not. */
export const isServer = (s) =>
  s.command === undefined || s.command.join(' ').includes(`apps/${s.app}/dist/main.js`);

/** The listener ports a server opens, by variable, with compose's value (or its default). */
function listenersOf(s) {
  const out = {};
  const own = `${s.app.toUpperCase().replace(/-/g, '_')}_RPC_PORT`;
  for (const name of [own, 'HEALTH_PORT', 'GATEWAY_PORT', 'FILES_HTTP_PORT', 'LISTEN_PORT'])
    if (s.env[name] !== undefined) out[name] = s.env[name];
  // The files service's blob listener: its default port, which the gateway's FILES_HTTP_URL names.
  if (s.app === 'files' && out.FILES_HTTP_PORT === undefined) out.FILES_HTTP_PORT = '4013';
  return out;
}

/**
 * Maps every service's environment. `standIns` names, per compose service that is not ours,
 * `{host, port}` of what answers for it here (postgres, redis, minio, clamav, mailpit), keyed
 * `svc:port`; `freePort()` gives a port for each listener of ours; `paths` maps volume paths to
 * local folders; `credentials` and `replace` name the remaining substitutions:
 * `{DATABASE_URL(url), S3_ACCESS_KEY, S3_SECRET_KEY, REDIS_PREFIX}`.
 * Returns `{services: [{svc, app, server, env, changes: [{name, from, to}]}], addresses}`.
 */
export async function mapComposeEnv(compose, { standIns, freePort, paths, replace }) {
  const services = ourServices(compose);
  // Where each compose address `svc:port` is reached from here.
  const addresses = new Map(Object.entries(standIns));
  const listeners = new Map();
  for (const s of services.filter(isServer)) {
    const own = {};
    for (const [name, port] of Object.entries(listenersOf(s))) {
      own[name] = String(await freePort());
      addresses.set(`${s.svc}:${port}`, { host: '127.0.0.1', port: own[name] });
    }
    listeners.set(s.svc, own);
  }

  const mapAuthorities = (value) =>
    value.replace(/\b([a-z][a-z0-9-]*):(\d{2,5})\b/g, (whole, host, port) => {
      const to = addresses.get(`${host}:${port}`);
      return to ? `${to.host}:${to.port}` : whole;
    });
  const mapPath = (value) => {
    for (const [from, to] of Object.entries(paths))
      if (value === from || value.startsWith(`${from}/`)) return to + value.slice(from.length);
    return value;
  };

  const mapped = services.map((s) => {
    const env = { ...s.env };
    const own = listeners.get(s.svc) ?? {};
    for (const [name, value] of Object.entries(env)) {
      let next = mapPath(mapAuthorities(value));
      // `<PEER>_HOST` naming a compose service, with its `<PEER>_PORT` beside it.
      const peer = /^(.+)_HOST$/.exec(name)?.[1];
      if (peer && compose.services[value]) {
        const portVar = `${peer}_PORT`;
        const to = addresses.get(`${value}:${s.env[portVar]}`);
        if (to) next = to.host;
      }
      if (/_PORT$/.test(name) && !own[name]) {
        const hostVar = name.replace(/_PORT$/, '_HOST');
        const to = addresses.get(`${s.env[hostVar]}:${value}`);
        if (to) next = String(to.port);
      }
      if (own[name]) next = own[name];
      if (name in replace) next = typeof replace[name] === 'function' ? replace[name](next) : replace[name];
      env[name] = next;
    }
    for (const [name, port] of Object.entries(own)) env[name] ??= port;
    const changes = [...new Set([...Object.keys(s.env), ...Object.keys(env)])]
      .filter((name) => s.env[name] !== env[name])
      .map((name) => ({ name, from: s.env[name], to: env[name] }));
    return { svc: s.svc, app: s.app, server: isServer(s), command: s.command, env, changes };
  });
  return { services: mapped, addresses };
}
