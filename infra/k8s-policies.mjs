// This project's own rules for the rendered manifests (k8s/README.md "How the manifests are
// validated"): what kustomize and the API schemas cannot know. Each check takes a render (the
// objects `kubectl kustomize` printed) and a context ({overlay, readme}) and returns the problems
// found; none means it passed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import YAML from 'yaml';
import { SERVICES } from '../scripts/lib/stack.mjs';
import { documentedVariables, root } from './checks.mjs';

// ── policy (k8s/README.md explains each) ───────────────────────────────────────────────
/**
 * Who may connect to a workload: `controller` (the ingress controller, a named namespace) and the
 * workloads of this namespace in `pods`. A workload not listed accepts no connection at all.
 */
const INGRESS_FROM = {
  web: { controller: true, pods: [] },
  gateway: { controller: true, pods: ['web'] },
  files: { controller: false, pods: ['gateway'] },
};
/**
 * Prometheus: the one other namespace that may connect to our pods, only to the ops listener's
 * port (HEALTH_PORT, 9090: probes and /metrics), never to a public one.
 */
const METRICS = {
  namespace: 'monitoring',
  port: 9090,
  annotations: {
    'prometheus.io/scrape': 'true',
    'prometheus.io/port': '9090',
    'prometheus.io/path': '/metrics',
  },
};
/** A NetworkPolicy ingress rule letting Prometheus scrape: from its namespace only, to 9090 only. */
const isMetricsRule = (rule) =>
  (rule.ports ?? []).length > 0 &&
  rule.ports.every((p) => p.port === METRICS.port) &&
  (rule.from ?? []).length > 0 &&
  rule.from.every(
    (peer) =>
      peer.namespaceSelector &&
      !peer.podSelector &&
      peer.namespaceSelector.matchLabels?.['kubernetes.io/metadata.name'] === METRICS.namespace &&
      Object.keys(peer.namespaceSelector).length === 1 &&
      Object.keys(peer.namespaceSelector.matchLabels).length === 1,
  );
/**
 * Ports pods may dial out to, and which workloads may (`migration`: every migration Job). `pods`:
 * a workload of this namespace, which the rule must then name with a podSelector.
 */
const SERVICES_WITH_DB = ['auth', 'notes', 'files', 'admin'];
const EGRESS_TO = {
  53: { what: 'DNS', who: '*' },
  5432: { what: 'Postgres', who: [...SERVICES_WITH_DB, 'migration'] },
  6379: { what: 'Redis', who: ['gateway', ...SERVICES_WITH_DB, 'scan-worker'] },
  4222: { what: 'NATS', who: ['gateway', ...SERVICES_WITH_DB] },
  443: { what: 'S3 (HTTPS)', who: ['files', 'scan-worker'] },
  3310: { what: 'clamd', who: ['admin', 'scan-worker'] },
  587: { what: 'SMTP submission (recovery mail)', who: ['auth'] },
  465: { what: 'SMTPS (recovery mail)', who: ['auth'] },
  4013: { what: "files' blob route", who: ['gateway'], pods: 'files' },
  8080: { what: "the gateway (web's /api proxy)", who: ['web'], pods: 'gateway' },
};
/** A container port of this name (`<image's app>/<name>`, or any app's `<name>`) must equal this variable. */
const PORT_VARIABLES = {
  'web/http': 'LISTEN_PORT',
  'gateway/http': 'GATEWAY_PORT',
  'files/blob': 'FILES_HTTP_PORT',
  health: 'HEALTH_PORT',
};
/** Variables that name an in-cluster Service (`host:port` or a URL): it must exist, on that port, before these pods. */
const SERVICE_VARIABLES = { GATEWAY_UPSTREAM: 'gateway', FILES_HTTP_URL: 'files' };
/** Variables every container that sets them must give the same value. */
const SHARED_VARIABLES = ['S3_PUBLIC_ENDPOINT', 'REDIS_PREFIX'];
/** The Ingress's paths and where each must lead. */
const INGRESS_PATHS = { '/': 'web', '/api': 'gateway' };
const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];
const ANNOTATION = 'nginx.ingress.kubernetes.io/';

// ── facts about a render ────────────────────────────────────────────────────────────────
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const idOf = (o) => `${o.kind}/${o.metadata?.name}`;
const byKind = (objs, kind) => objs.filter((o) => o.kind === kind);
const workloads = (objs) => objs.filter((o) => WORKLOAD_KINDS.includes(o.kind));
const podTemplate = (o) => (o.kind === 'CronJob' ? o.spec?.jobTemplate?.spec?.template : o.spec?.template);
const podSpecOf = (o) => podTemplate(o)?.spec ?? {};
const podLabelsOf = (o) => podTemplate(o)?.metadata?.labels ?? {};
const containersOf = (o) => [...(podSpecOf(o).initContainers ?? []), ...(podSpecOf(o).containers ?? [])];
/** A workload's name in the policy tables: its own, or `migration` for a migration Job. */
const roleOf = (w) =>
  podLabelsOf(w)['app.kubernetes.io/component'] === 'migration' ? 'migration' : w.metadata.name;

function splitImage(image) {
  const at = image.indexOf('@');
  if (at >= 0) return { name: image.slice(0, at), tag: '', digest: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/')) return { name: image.slice(0, colon), tag: image.slice(colon + 1) };
  return { name: image, tag: '' };
}
/** Which app an image is: registry/…/vault-<app>:tag → <app>. */
function appOfImage(image) {
  const base = splitImage(image ?? '')
    .name.split('/')
    .pop();
  return base.startsWith('vault-') ? base.slice('vault-'.length) : undefined;
}
/** The variables an app documents; the web image's (nginx) are infra/web/README.md's, not the SPA's. */
const variablesOf = (app) => documentedVariables(app === 'web' ? '../infra/web' : app);

function selectorMatches(selector, labels) {
  if (!selector) return false;
  const { matchLabels = {}, matchExpressions = [] } = selector;
  if (!Object.entries(matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return matchExpressions.every(({ key, operator, values = [] }) => {
    if (operator === 'In') return values.includes(labels[key]);
    if (operator === 'NotIn') return !values.includes(labels[key]);
    if (operator === 'Exists') return key in labels;
    if (operator === 'DoesNotExist') return !(key in labels);
    return false;
  });
}
const isEmptySelector = (s) =>
  isObject(s) && !Object.keys(s.matchLabels ?? {}).length && !(s.matchExpressions ?? []).length;
const selectedBy = (ws, selector) =>
  isEmptySelector(selector) ? ws : ws.filter((w) => selectorMatches(selector, podLabelsOf(w)));

const UNITS = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };
function quantity(q) {
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?$/.exec(String(q));
  return m ? Number(m[1]) * (m[2] ? UNITS[m[2]] : 1) : NaN;
}
/** An nginx size (`102m`: k, m, g are powers of 1024) in bytes. */
function nginxSize(s) {
  const m = /^(\d+)([kmg]?)$/i.exec(String(s ?? ''));
  return m ? Number(m[1]) * 1024 ** ' kmg'.indexOf((m[2] || ' ').toLowerCase()) : NaN;
}

/** Every variable a container gets, with its value where the manifests hold it. */
function containerEnv(c, objs) {
  const env = new Map();
  const problems = [];
  const configMap = (name) => objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name);
  for (const from of c.envFrom ?? []) {
    if (from.secretRef) {
      problems.push(
        `envFrom secretRef ${from.secretRef.name}: name the keys with secretKeyRef so they can be checked`,
      );
      continue;
    }
    const cm = configMap(from.configMapRef?.name);
    if (!cm) problems.push(`envFrom ConfigMap ${from.configMapRef?.name} is not in the render`);
    for (const [k, v] of Object.entries(cm?.data ?? {}))
      env.set(`${from.prefix ?? ''}${k}`, { value: v, from: `ConfigMap ${cm.metadata.name}` });
  }
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.configMapKeyRef;
    const cm = ref && configMap(ref.name);
    if (ref && !(ref.key in (cm?.data ?? {})))
      problems.push(`${e.name}: ConfigMap ${ref.name} key ${ref.key} is not in the render`);
    env.set(
      e.name,
      ref ? { value: cm?.data?.[ref.key], from: `ConfigMap ${ref.name}` } : { value: e.value, from: 'env' },
    );
  }
  return { env, problems };
}

/** Secrets the render references: name → keys. */
function referencedSecrets(objs) {
  const refs = new Map();
  const add = (name, key) => {
    if (!refs.has(name)) refs.set(name, new Set());
    if (key) refs.get(name).add(key);
  };
  for (const w of workloads(objs)) {
    for (const c of containersOf(w))
      for (const e of c.env ?? [])
        if (e.valueFrom?.secretKeyRef) add(e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.key);
    for (const v of podSpecOf(w).volumes ?? [])
      if (v.secret) {
        add(v.secret.secretName);
        for (const item of v.secret.items ?? []) add(v.secret.secretName, item.key);
      }
  }
  for (const ing of byKind(objs, 'Ingress'))
    for (const tls of ing.spec?.tls ?? []) if (tls.secretName) add(tls.secretName, 'tls.crt');
  return refs;
}

/** The Service a `host:port` or URL value names, and the port: {service, port} or undefined. */
function serviceReference(value) {
  const m = /^(?:[a-z]+:\/\/)?([a-z0-9-]+)(?:\.[a-z0-9.-]+)?:(\d+)(?:\/.*)?$/.exec(String(value ?? ''));
  return m ? { service: m[1], port: Number(m[2]) } : undefined;
}

/** The largest value of an nginx directive in one of infra/web's templates. */
function webTemplateMax(file, directive, parse) {
  const text = readFileSync(join(root, 'infra', 'web', file), 'utf8');
  const values = [...text.matchAll(new RegExp(`^\\s*${directive}\\s+([^;\\s]+);`, 'gm'))].map((m) =>
    parse(m[1]),
  );
  return values.length ? Math.max(...values) : NaN;
}

// ── the checks ──────────────────────────────────────────────────────────────────────────
export const CHECKS = {
  resources: {
    title: 'every container requests and limits cpu and memory, requests ≤ limits',
    run(objs) {
      const out = [];
      for (const w of workloads(objs))
        for (const c of containersOf(w))
          for (const r of ['cpu', 'memory']) {
            const req = c.resources?.requests?.[r];
            const lim = c.resources?.limits?.[r];
            if (req === undefined || lim === undefined)
              out.push(`${idOf(w)} ${c.name}: no ${r} request or limit`);
            else if (quantity(req) > quantity(lim))
              out.push(`${idOf(w)} ${c.name}: ${r} request is above its limit`);
          }
      return out;
    },
  },
  probes: {
    title: 'every long-running container has startup, liveness and readiness probes on its own ports',
    run(objs) {
      const out = [];
      for (const w of workloads(objs).filter((x) => x.kind !== 'Job' && x.kind !== 'CronJob'))
        for (const c of podSpecOf(w).containers ?? [])
          for (const p of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
            const port = c[p]?.httpGet?.port ?? c[p]?.tcpSocket?.port ?? c[p]?.grpc?.port;
            if (!c[p]) out.push(`${idOf(w)} ${c.name}: no ${p}`);
            else if (
              port !== undefined &&
              !(c.ports ?? []).some((q) => q.name === port || q.containerPort === port)
            )
              out.push(`${idOf(w)} ${c.name}: ${p} port ${port} is not a port of the container`);
          }
      return out;
    },
  },
  security: {
    title:
      'every pod runs as a non-root uid, read-only root with /tmp an emptyDir, no privilege escalation, no capabilities, RuntimeDefault seccomp, no token, no service links',
    run(objs) {
      const out = [];
      for (const w of workloads(objs)) {
        const spec = podSpecOf(w);
        const pod = spec.securityContext ?? {};
        if (spec.automountServiceAccountToken !== false)
          out.push(`${idOf(w)}: automountServiceAccountToken is not false`);
        if (spec.enableServiceLinks !== false)
          out.push(
            `${idOf(w)}: enableServiceLinks is not false (service links inject variables like GATEWAY_PORT)`,
          );
        for (const f of ['hostNetwork', 'hostPID', 'hostIPC'])
          if (spec[f]) out.push(`${idOf(w)}: ${f} is set`);
        const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
        for (const c of containersOf(w)) {
          const sc = c.securityContext ?? {};
          const at = `${idOf(w)} ${c.name}`;
          if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) out.push(`${at}: runAsNonRoot is not true`);
          if (!((sc.runAsUser ?? pod.runAsUser) > 0)) out.push(`${at}: runAsUser is not a non-root uid`);
          if (sc.readOnlyRootFilesystem !== true) out.push(`${at}: readOnlyRootFilesystem is not true`);
          if (sc.allowPrivilegeEscalation !== false) out.push(`${at}: allowPrivilegeEscalation is not false`);
          if (sc.privileged) out.push(`${at}: privileged`);
          if (!(sc.capabilities?.drop ?? []).includes('ALL')) out.push(`${at}: capabilities do not drop ALL`);
          if ((sc.capabilities?.add ?? []).length) out.push(`${at}: capabilities are added`);
          if ((sc.seccompProfile ?? pod.seccompProfile)?.type !== 'RuntimeDefault')
            out.push(`${at}: seccompProfile is not RuntimeDefault`);
          const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
          if (!tmp || !volumes.get(tmp.name)?.emptyDir || tmp.readOnly)
            out.push(`${at}: no writable emptyDir at /tmp (the root filesystem is read-only)`);
        }
      }
      return out;
    },
  },
  secrets: {
    title:
      'no Secret with data in the render; every referenced Secret and key is documented in k8s/README.md',
    run(objs, ctx) {
      const out = [];
      for (const s of byKind(objs, 'Secret'))
        if (Object.keys(s.data ?? {}).length || Object.keys(s.stringData ?? {}).length)
          out.push(
            `${idOf(s)}: a Secret with data is in the manifests (reference it; k8s/README.md says how to create it)`,
          );
      for (const [name, keys] of referencedSecrets(objs)) {
        if (!ctx.readme.includes(`\`${name}\``))
          out.push(`Secret ${name} is referenced but k8s/README.md does not document it`);
        for (const key of keys)
          if (!ctx.readme.includes(key))
            out.push(`Secret ${name} key ${key} is referenced but k8s/README.md does not name it`);
      }
      return out;
    },
  },
  env: {
    title:
      "every variable set for a container is one of its app's (apps/<app>/README.md, infra/web/README.md)",
    run(objs) {
      const out = [];
      for (const w of workloads(objs))
        for (const c of containersOf(w)) {
          const app = appOfImage(c.image);
          const { env, problems } = containerEnv(c, objs);
          out.push(...problems.map((p) => `${idOf(w)} ${c.name}: ${p}`));
          if (!app) {
            if (env.size)
              out.push(
                `${idOf(w)} ${c.name}: image ${c.image} is no vault-<app>, so its variables cannot be checked`,
              );
            continue;
          }
          const known = variablesOf(app);
          if (!known.size) out.push(`${app}: its README has no Configuration table to check against`);
          for (const [name, { from }] of env)
            if (!known.has(name))
              out.push(`${idOf(w)} ${c.name}: ${name} (from ${from}) is not a variable of ${app}`);
        }
      return out;
    },
  },
  wiring: {
    title:
      'ports equal the variables they listen by, Services named by variables exist with that port, shared values agree, *_FILE paths are mounted',
    run(objs) {
      const out = [];
      const shared = new Map();
      for (const w of workloads(objs)) {
        const volumes = new Map((podSpecOf(w).volumes ?? []).map((v) => [v.name, v]));
        for (const c of containersOf(w)) {
          const at = `${idOf(w)} ${c.name}`;
          const { env } = containerEnv(c, objs);
          for (const p of c.ports ?? []) {
            const variable = PORT_VARIABLES[`${appOfImage(c.image)}/${p.name}`] ?? PORT_VARIABLES[p.name];
            const value = variable && env.get(variable)?.value;
            if (variable && String(value) !== String(p.containerPort))
              out.push(`${at}: port ${p.name} is ${p.containerPort} but ${variable} is ${value ?? 'unset'}`);
          }
          for (const [variable, target] of Object.entries(SERVICE_VARIABLES)) {
            if (!env.has(variable)) continue;
            const ref = serviceReference(env.get(variable).value);
            const svc = ref && objs.find((o) => o.kind === 'Service' && o.metadata.name === ref.service);
            const pods = svc
              ? workloads(objs).filter((x) =>
                  selectorMatches({ matchLabels: svc.spec?.selector ?? {} }, podLabelsOf(x)),
                )
              : [];
            if (
              !svc ||
              !(svc.spec?.ports ?? []).some((p) => p.port === ref.port) ||
              !pods.some((x) => x.metadata.name === target)
            )
              out.push(
                `${at}: ${variable}=${env.get(variable).value} is no port of a Service in front of ${target}`,
              );
          }
          for (const name of SHARED_VARIABLES)
            if (env.has(name)) shared.set(name, [...(shared.get(name) ?? []), [at, env.get(name).value]]);
          for (const [name, { value }] of env) {
            if (!name.endsWith('_FILE') || typeof value !== 'string') continue;
            const mount = (c.volumeMounts ?? []).find((m) =>
              value.startsWith(`${m.mountPath.replace(/\/$/, '')}/`),
            );
            const items = mount && volumes.get(mount.name)?.secret?.items;
            const file = mount && value.slice(mount.mountPath.replace(/\/$/, '').length + 1);
            if (!mount) out.push(`${at}: ${name}=${value} is under no volume mount`);
            else if (items && !items.some((i) => i.path === file))
              out.push(`${at}: ${name}=${value} is not among the items of volume ${mount.name}`);
          }
        }
      }
      for (const [name, uses] of shared) {
        const values = [...new Set(uses.map(([, v]) => v))];
        const who = (value) => uses.filter(([, v]) => v === value).map(([at]) => at);
        if (values.length > 1)
          out.push(`${name} differs: ${values.map((v) => `${v} (${who(v).join(', ')})`).join(' vs ')}`);
      }
      return out;
    },
  },
  disruption: {
    title: 'every Deployment has exactly one PodDisruptionBudget',
    run(objs) {
      return byKind(objs, 'Deployment').flatMap((d) => {
        const n = byKind(objs, 'PodDisruptionBudget').filter((p) =>
          selectorMatches(p.spec?.selector, podLabelsOf(d)),
        ).length;
        return n === 1 ? [] : [`${idOf(d)}: ${n} PodDisruptionBudgets select its pods`];
      });
    },
  },
  autoscaling: {
    title:
      'replica counts fit the overlay (production: an HPA from ≥ 2 on every Deployment; dev: nothing above 1)',
    run(objs, ctx) {
      const out = [];
      const hpas = byKind(objs, 'HorizontalPodAutoscaler');
      for (const h of hpas)
        if ((h.spec?.minReplicas ?? 1) > h.spec?.maxReplicas)
          out.push(`${idOf(h)}: minReplicas is above maxReplicas`);
      for (const d of byKind(objs, 'Deployment')) {
        const hpa = hpas.find(
          (h) =>
            h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef.name === d.metadata.name,
        );
        const min = hpa ? (hpa.spec.minReplicas ?? 1) : (d.spec?.replicas ?? 1);
        if (hpa && d.spec?.replicas !== undefined)
          out.push(
            `${idOf(d)}: sets spec.replicas although ${idOf(hpa)} owns the count (every apply would reset it)`,
          );
        if (ctx.overlay === 'production') {
          if (!hpa) out.push(`${idOf(d)}: no HorizontalPodAutoscaler in production`);
          else if (min < 2) out.push(`${idOf(hpa)}: minReplicas ${min} < 2 in production`);
        } else if (min > 1) out.push(`${idOf(d)}: starts ${min} replicas in ${ctx.overlay} (at most 1)`);
      }
      return out;
    },
  },
  selectors: {
    title: 'every Service, PDB, HPA and NetworkPolicy selects an existing workload; Service ports exist',
    run(objs) {
      const out = [];
      const ws = workloads(objs);
      for (const w of ws)
        if (w.spec?.selector && !selectorMatches(w.spec.selector, podLabelsOf(w)))
          out.push(`${idOf(w)}: its selector does not match its own pod template`);
      for (const s of byKind(objs, 'Service')) {
        const hits = s.spec?.selector
          ? ws.filter((w) => selectorMatches({ matchLabels: s.spec.selector }, podLabelsOf(w)))
          : [];
        if (!hits.length) out.push(`${idOf(s)}: its selector matches no workload`);
        for (const p of s.spec?.ports ?? [])
          for (const w of hits)
            if (
              !containersOf(w).some((c) =>
                (c.ports ?? []).some(
                  (q) => q.name === (p.targetPort ?? p.port) || q.containerPort === (p.targetPort ?? p.port),
                ),
              )
            )
              out.push(`${idOf(s)}: targetPort ${p.targetPort ?? p.port} is no container port of ${idOf(w)}`);
      }
      for (const p of byKind(objs, 'PodDisruptionBudget'))
        if (!ws.some((w) => selectorMatches(p.spec?.selector, podLabelsOf(w))))
          out.push(`${idOf(p)}: its selector matches no workload`);
      for (const n of byKind(objs, 'NetworkPolicy'))
        if (!selectedBy(ws, n.spec?.podSelector).length)
          out.push(`${idOf(n)}: its podSelector matches no workload`);
      for (const h of byKind(objs, 'HorizontalPodAutoscaler')) {
        const ref = h.spec?.scaleTargetRef ?? {};
        if (
          !objs.some(
            (o) => o.kind === ref.kind && o.metadata.name === ref.name && o.apiVersion === ref.apiVersion,
          )
        )
          out.push(
            `${idOf(h)}: scaleTargetRef ${ref.apiVersion} ${ref.kind} ${ref.name} is not in the render`,
          );
      }
      return out;
    },
  },
  ingress: {
    title:
      'the Ingress sends / to web and /api to the gateway and nowhere else, streams uploads as web does (production: host and TLS)',
    run(objs, ctx) {
      const out = [];
      const ingresses = byKind(objs, 'Ingress');
      const found = {};
      const bodyMax = webTemplateMax('nginx.conf.template', 'client_max_body_size', nginxSize);
      const timeout = Math.max(
        webTemplateMax('proxy.conf.template', 'proxy_read_timeout', parseInt),
        webTemplateMax('proxy.conf.template', 'proxy_send_timeout', parseInt),
      );
      for (const ing of ingresses) {
        const a = ing.metadata?.annotations ?? {};
        if (!(nginxSize(a[`${ANNOTATION}proxy-body-size`]) >= bodyMax))
          out.push(
            `${idOf(ing)}: ${ANNOTATION}proxy-body-size is below web's client_max_body_size (${bodyMax} bytes)`,
          );
        if (a[`${ANNOTATION}proxy-request-buffering`] !== 'off')
          out.push(
            `${idOf(ing)}: ${ANNOTATION}proxy-request-buffering is not off (uploads would be held by the controller)`,
          );
        for (const t of ['proxy-read-timeout', 'proxy-send-timeout'])
          if (!(Number(a[`${ANNOTATION}${t}`]) >= timeout))
            out.push(`${idOf(ing)}: ${ANNOTATION}${t} is below web's ${timeout} s`);
        if (ing.spec?.defaultBackend)
          out.push(
            `${idOf(ing)}: a defaultBackend (only ${Object.keys(INGRESS_PATHS).join(', ')} are public)`,
          );
        for (const rule of ing.spec?.rules ?? [])
          for (const p of rule.http?.paths ?? []) {
            const svc = objs.find(
              (o) => o.kind === 'Service' && o.metadata.name === p.backend?.service?.name,
            );
            const port = p.backend?.service?.port ?? {};
            const reaches = svc
              ? workloads(objs).filter((w) =>
                  selectorMatches({ matchLabels: svc.spec?.selector ?? {} }, podLabelsOf(w)),
                )
              : [];
            if (
              !svc ||
              !(svc.spec?.ports ?? []).some((q) =>
                port.name !== undefined ? q.name === port.name : q.port === port.number,
              )
            )
              out.push(`${idOf(ing)}: ${p.path} leads to no port of a Service in the render`);
            else if (
              INGRESS_PATHS[p.path] === undefined ||
              p.pathType !== 'Prefix' ||
              reaches.map((w) => w.metadata.name).join() !== INGRESS_PATHS[p.path]
            )
              out.push(
                `${idOf(ing)}: ${p.path} (${p.pathType}) reaches ${reaches.map(idOf).join(', ') || 'nothing'}`,
              );
            else found[`${rule.host}${p.path}`] = true;
          }
        if (ctx.overlay === 'production') {
          const tls = (ing.spec?.tls ?? []).filter((t) => t.secretName).flatMap((t) => t.hosts ?? []);
          for (const r of ing.spec?.rules ?? [])
            if (!r.host) out.push(`${idOf(ing)}: a rule without a host in production`);
            else if (!tls.includes(r.host)) out.push(`${idOf(ing)}: ${r.host} has no TLS in production`);
        }
      }
      const hosts = new Set(ingresses.flatMap((i) => (i.spec?.rules ?? []).map((r) => r.host)));
      for (const host of hosts)
        for (const path of Object.keys(INGRESS_PATHS))
          if (!found[`${host}${path}`])
            out.push(`no Ingress path ${path} to ${INGRESS_PATHS[path]}${host ? ` on ${host}` : ''}`);
      if (!ingresses.length) out.push('no Ingress: nothing would reach web and the gateway');
      return out;
    },
  },
  network: {
    title:
      'default deny; only web and the gateway from the ingress controller, the services only from the gateway (files), egress only as k8s/README.md lists',
    run(objs) {
      const out = [];
      const nps = byKind(objs, 'NetworkPolicy');
      const ws = workloads(objs);
      const denyAll = nps.some(
        (n) =>
          isEmptySelector(n.spec?.podSelector) &&
          ['Ingress', 'Egress'].every((t) => (n.spec?.policyTypes ?? []).includes(t)) &&
          !(n.spec?.ingress ?? []).length &&
          !(n.spec?.egress ?? []).length,
      );
      if (!denyAll) out.push('no NetworkPolicy denies all ingress and egress in the namespace');
      for (const n of nps) {
        const selected = selectedBy(ws, n.spec?.podSelector);
        for (const rule of n.spec?.ingress ?? [])
          for (const w of selected) {
            // Prometheus on the ops port of a pod that has one: allowed whatever else the pod accepts.
            const ops = containersOf(w).some((c) =>
              (c.ports ?? []).some((p) => p.containerPort === METRICS.port),
            );
            if (ops && isMetricsRule(rule)) continue;
            const allowed = INGRESS_FROM[roleOf(w)];
            const ports = containersOf(w).flatMap((c) => c.ports ?? []);
            if (!allowed) out.push(`${idOf(n)}: lets traffic into ${idOf(w)}, which accepts none`);
            if (!(rule.from ?? []).length)
              out.push(`${idOf(n)}: an ingress rule into ${idOf(w)} allows every source`);
            if (!(rule.ports ?? []).length)
              out.push(`${idOf(n)}: an ingress rule into ${idOf(w)} allows every port`);
            for (const p of rule.ports ?? [])
              if (!ports.some((q) => q.containerPort === p.port || q.name === p.port))
                out.push(`${idOf(n)}: port ${p.port} is no container port of ${idOf(w)}`);
            for (const peer of rule.from ?? []) {
              if (peer.ipBlock || (peer.namespaceSelector && peer.podSelector))
                out.push(
                  `${idOf(n)}: an ingress peer of ${idOf(w)} is neither a named namespace nor pods of this one`,
                );
              else if (peer.namespaceSelector) {
                if (!allowed?.controller || isEmptySelector(peer.namespaceSelector))
                  out.push(
                    `${idOf(n)}: ${idOf(w)} is open to ${isEmptySelector(peer.namespaceSelector) ? 'every namespace' : 'another namespace'}`,
                  );
              } else {
                const from = selectedBy(ws, peer.podSelector ?? {});
                const bad = from.filter((x) => !allowed?.pods.includes(roleOf(x)));
                if (!from.length || bad.length || isEmptySelector(peer.podSelector))
                  out.push(
                    `${idOf(n)}: ${idOf(w)} is open to pods ${from.length ? from.map(idOf).join(', ') : 'that are not there'} (allowed: ${allowed?.pods.join(', ') || 'none'})`,
                  );
              }
            }
          }
        for (const rule of n.spec?.egress ?? []) {
          if (!(rule.ports ?? []).length) out.push(`${idOf(n)}: an egress rule allows every port`);
          for (const p of rule.ports ?? []) {
            const allowed = EGRESS_TO[p.port];
            if (!allowed) {
              out.push(
                `${idOf(n)}: egress to port ${p.port} is not one of ${Object.keys(EGRESS_TO).join(', ')}`,
              );
              continue;
            }
            for (const w of selected)
              if (allowed.who !== '*' && !allowed.who.includes(roleOf(w)))
                out.push(
                  `${idOf(n)}: ${idOf(w)} may reach ${allowed.what} (${p.port}); only ${allowed.who.join(', ')} may`,
                );
            const to = rule.to ?? [];
            if (
              allowed.pods &&
              (!to.length ||
                to.some(
                  (peer) =>
                    peer.namespaceSelector ||
                    peer.ipBlock ||
                    selectedBy(ws, peer.podSelector ?? {})
                      .map((x) => x.metadata.name)
                      .join() !== allowed.pods,
                ))
            )
              out.push(
                `${idOf(n)}: egress to ${allowed.what} (${p.port}) must name the ${allowed.pods} pods only`,
              );
          }
        }
      }
      return out;
    },
  },
  metrics: {
    title:
      'every service and the gateway is scraped on its ops listener (HEALTH_PORT 9090, prometheus.io annotations), reachable from the monitoring namespace on that port only',
    run(objs) {
      const out = [];
      const nps = byKind(objs, 'NetworkPolicy');
      const ws = workloads(objs).filter((w) => w.kind === 'Deployment' && roleOf(w) !== 'web');
      for (const w of ws) {
        const annotations = podTemplate(w)?.metadata?.annotations ?? {};
        for (const [key, value] of Object.entries(METRICS.annotations))
          if (annotations[key] !== value) out.push(`${idOf(w)}: pod annotation ${key} is not '${value}'`);
        if (
          !containersOf(w).some((c) =>
            (c.ports ?? []).some((p) => p.name === 'health' && p.containerPort === METRICS.port),
          )
        )
          out.push(`${idOf(w)}: no container port health (${METRICS.port}) to scrape`);
        const scraped = nps.some(
          (n) => selectedBy([w], n.spec?.podSelector).length && (n.spec?.ingress ?? []).some(isMetricsRule),
        );
        if (!scraped)
          out.push(`${idOf(w)}: no NetworkPolicy lets ${METRICS.namespace} reach ${METRICS.port}`);
      }
      for (const svc of byKind(objs, 'Service'))
        for (const p of svc.spec?.ports ?? [])
          if (p.port === METRICS.port || p.targetPort === 'health' || p.targetPort === METRICS.port)
            if (svc.metadata?.name === 'gateway')
              out.push(`${idOf(svc)}: exposes the ops port ${METRICS.port}`);
      return out;
    },
  },
  services: {
    title:
      'web and every service `npm start` runs have a Deployment, and each that migrates a migration Job, on its image',
    run(objs) {
      const out = [];
      const runs = (kind, app, file) =>
        byKind(objs, kind).some((w) =>
          containersOf(w).some(
            (c) =>
              appOfImage(c.image) === app &&
              (file === undefined || [c.command ?? []].flat().join(' ').includes(file)),
          ),
        );
      if (!runs('Deployment', 'web')) out.push('web: no Deployment runs vault-web');
      for (const { name, main, migrate } of SERVICES) {
        const app = main.split('/')[1];
        if (!runs('Deployment', app, main)) out.push(`${name}: no Deployment runs ${main} on vault-${app}`);
        if (migrate && !runs('Job', app, migrate))
          out.push(`${name}: no Job runs ${migrate} on vault-${app}`);
      }
      return out;
    },
  },
  images: {
    title: 'every image is a vault-<app> of apps/ with an explicit tag (not latest) or digest',
    run(objs) {
      const out = [];
      for (const w of workloads(objs))
        for (const c of containersOf(w)) {
          const { tag, digest } = splitImage(c.image ?? '');
          if (!digest && (!tag || tag === 'latest'))
            out.push(`${idOf(w)} ${c.name}: image ${c.image} has no fixed tag`);
          const app = appOfImage(c.image);
          if (!app || !existsSync(join(root, 'apps', app, 'package.json')))
            out.push(`${idOf(w)} ${c.name}: image ${c.image} names no app of apps/`);
        }
      return out;
    },
  },
};

/** Secret manifests and secret generators in the files under `dir` (none may be committed). */
export function committedSecrets(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !/\.ya?ml$/.test(e.name)) continue;
    const file = join(e.parentPath, e.name);
    const shown = relative(root, file).startsWith('..') ? file : relative(root, file);
    for (const doc of YAML.parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS())) {
      if (doc?.kind === 'Secret') out.push(`${shown}: a Secret manifest`);
      if (doc?.secretGenerator) out.push(`${shown}: a secretGenerator`);
    }
  }
  return out;
}
