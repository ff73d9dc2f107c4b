#!/usr/bin/env node
// Offline checks of the Kubernetes manifests in k8s/ (k8s/README.md "How the manifests are
// validated"): no cluster answers here, so the base and every overlay are built by `kubectl
// kustomize`, every object is validated against its API schema by kubernetes-models
// (infra/k8s-build.mjs), and each overlay is held to this project's own rules
// (infra/k8s-policies.mjs).
//
//   node infra/validate-k8s.mjs               validate the base and every overlay
//   node infra/validate-k8s.mjs --self-test   plant one mistake at a time and require its check to fail
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import YAML from 'yaml';
import { checkRunner, documentedVariables, root } from './checks.mjs';
import { kubectlVersions, kustomizeBuild, schemaProblems } from './k8s-build.mjs';
import { CHECKS, committedSecrets } from './k8s-policies.mjs';

const k8sDir = join(root, 'k8s');
const OVERLAYS = ['dev', 'production'];
const readme = readFileSync(join(k8sDir, 'README.md'), 'utf8');
const { check, finish } = checkRunner();
const fail = (problems) => {
  if (problems.length) throw new Error(problems.join('\n'));
};

/**
 * The whole pipeline on one kustomization: the build, the schemas, then (for an overlay) every
 * policy check and the committed-secrets scan of its folder. Returns each step's problems by name
 * (`build`, `schema`, the ids of CHECKS, `committed`); after a failed build only `build` has run.
 */
function pipeline(dir, overlay) {
  const problems = {};
  let objs;
  try {
    objs = kustomizeBuild(dir);
    problems.build = [];
  } catch (e) {
    return { build: [e.message] };
  }
  problems.schema = schemaProblems(objs);
  if (!overlay) return problems;
  for (const [id, c] of Object.entries(CHECKS))
    problems[id] = c.run(JSON.parse(JSON.stringify(objs)), { overlay, readme });
  problems.committed = committedSecrets(dir);
  return problems;
}

const SCHEMA_TITLE = 'every object matches its Kubernetes API schema (kubernetes-models)';

function validateAll() {
  let tools;
  check('kubectl with kustomize v5 is on PATH', () => {
    tools = kubectlVersions();
  });
  if (tools) console.log(`  · kubectl ${tools.kubectl}, kustomize ${tools.kustomize}`);
  check('k8s/ commits no Secret manifest and no secretGenerator', () => fail(committedSecrets(k8sDir)));
  for (const target of ['base', ...OVERLAYS]) {
    const dir = join(k8sDir, target === 'base' ? 'base' : `overlays/${target}`);
    const problems = tools
      ? pipeline(dir, target === 'base' ? undefined : target)
      : { build: ['no kubectl'] };
    const step = (id, title) =>
      check(`${target}: ${title}`, () => fail(problems[id] ?? ['not run: the build failed']));
    step('build', 'kubectl kustomize builds it');
    step('schema', SCHEMA_TITLE);
    if (target !== 'base') for (const [id, c] of Object.entries(CHECKS)) step(id, c.title);
  }
  // Manifests no kustomization includes (k8s/extras: applied on their own) get the schemas too.
  for (const file of looseManifests())
    check(`${relative(root, file)}: ${SCHEMA_TITLE}`, () => {
      const docs = YAML.parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS());
      fail(schemaProblems(docs.filter((o) => o !== null && o !== undefined)));
    });
}

/** YAML files under k8s/ outside base/ and overlays/. */
function looseManifests() {
  return readdirSync(k8sDir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !/^(base|overlays)\//.test(relative(k8sDir, f)))
    .sort();
}

// ── self-test: plant one mistake at a time, through the same build and checks ──────────
// Each planting is a kustomization over a real overlay (`resources: [the overlay]`) that adds a
// patch or objects, built by kubectl like the overlays themselves.

/**
 * One planted mistake a row: the check that must fail, the mistake, the target (Kind/name), a JSON
 * 6902 operation with its path and value (`delete`: the whole object, by a strategic-merge
 * `$patch: delete`), and the overlay under it (production unless named). $C is the first container.
 */
const ROWS = `
- [build, a patch on a path that does not exist, Deployment/web, replace, $C/volumeMounts/5/name, x]
- [schema, a string where an integer belongs, HorizontalPodAutoscaler/gateway, replace, /spec/maxReplicas, ten]
- [schema, a required field missing (the selector), Deployment/auth, remove, /spec/selector]
- [schema, a value outside its enum (protocol HTTP), Service/web, replace, /spec/ports/0/protocol, HTTP]
- [schema, a container without a name, Deployment/web, remove, $C/name]
- [resources, limits dropped on web, Deployment/web, remove, $C/resources/limits]
- [resources, a memory request above its limit, Deployment/auth, replace, $C/resources/requests/memory, 4Gi]
- [resources, no resources on a migration Job, Job/migrate, remove, $C/resources]
- [probes, web's readiness probe dropped, Deployment/web, remove, $C/readinessProbe]
- [probes, a probe on a port the container lacks, Deployment/gateway, replace, $C/livenessProbe/httpGet/port, admin]
- [security, web with runAsNonRoot false, Deployment/web, replace, $C/securityContext/runAsNonRoot, false]
- [security, web as uid 0, Deployment/web, replace, $C/securityContext/runAsUser, 0]
- [security, web's root filesystem writable, Deployment/web, replace, $C/securityContext/readOnlyRootFilesystem, false]
- [security, privilege escalation on admin, Deployment/admin, replace, $C/securityContext/allowPrivilegeEscalation, true]
- [security, a capability added, Deployment/auth, add, $C/securityContext/capabilities/add, [NET_ADMIN]]
- [security, capabilities not dropped on web, Deployment/web, remove, $C/securityContext/capabilities]
- [security, the service account token mounted, Deployment/gateway, remove, /spec/template/spec/automountServiceAccountToken]
- [security, service links on, Deployment/auth, replace, /spec/template/spec/enableServiceLinks, true]
- [security, no /tmp on admin (read-only root), Deployment/admin, remove, $C/volumeMounts/0]
- [secrets, an undocumented Secret, Deployment/auth, replace, $C/env/0/valueFrom/secretKeyRef/name, db-creds]
- [env, an unknown variable, Deployment/auth, add, $C/env/-, { name: AUTH_DEBUG_BACKDOOR, value: '1' }]
- [env, another service's variable, Deployment/gateway, add, $C/env/-, { name: DATABASE_URL, value: 'postgres://x' }]
- [env, a ConfigMap key the services do not read, ConfigMap/vault-config, add, /data/GATEWAY_HOST, 0.0.0.0]
- [env, a gateway variable on web's nginx, ConfigMap/vault-web-config, add, /data/TRUST_PROXY, 'true']
- [env, the Secret passed whole (envFrom), Deployment/auth, add, $C/envFrom/-, { secretRef: { name: vault-secrets } }]
- [env, a ConfigMap that is not there, Deployment/auth, replace, $C/envFrom/1/configMapRef/name, vault-authh-config]
- [wiring, GATEWAY_PORT not the http port, ConfigMap/vault-gateway-config, replace, /data/GATEWAY_PORT, '3000']
- [wiring, LISTEN_PORT not web's http port, ConfigMap/vault-web-config, replace, /data/LISTEN_PORT, '8081']
- [wiring, FILES_HTTP_PORT not the blob port, ConfigMap/vault-files-config, replace, /data/FILES_HTTP_PORT, '4014']
- [wiring, GATEWAY_UPSTREAM on the pods' port, ConfigMap/vault-web-config, replace, /data/GATEWAY_UPSTREAM, 'gateway:8080']
- [wiring, FILES_HTTP_URL to no Service, ConfigMap/vault-gateway-config, replace, /data/FILES_HTTP_URL, 'http://blobs:4013']
- [wiring, S3_PUBLIC_ENDPOINT not the gateway's, ConfigMap/vault-web-config, replace, /data/S3_PUBLIC_ENDPOINT, 'https://s3.example']
- [wiring, a key file outside the mounted items, Deployment/gateway, replace, $C/env/1/value, /keys/jwt-private.pem]
- [disruption, auth's PDB removed, PodDisruptionBudget/auth, delete]
- [disruption, web's PDB removed, PodDisruptionBudget/web, delete]
- [autoscaling, the gateway's HPA removed, HorizontalPodAutoscaler/gateway, delete]
- [autoscaling, web's HPA from 1 in production, HorizontalPodAutoscaler/web, replace, /spec/minReplicas, 1]
- [autoscaling, spec.replicas beside an HPA, Deployment/web, add, /spec/replicas, 3]
- [autoscaling, dev starting 2 pods, HorizontalPodAutoscaler/admin, replace, /spec/minReplicas, 2, dev]
- [selectors, a wrong Service selector, Service/web, replace, /spec/selector/app.kubernetes.io~1name, wbe]
- [selectors, a wrong PDB selector, PodDisruptionBudget/admin, replace, /spec/selector/matchLabels/app.kubernetes.io~1name, admn]
- [selectors, an HPA on a Deployment that is not there, HorizontalPodAutoscaler/auth, replace, /spec/scaleTargetRef/name, authn]
- [selectors, a Service targetPort the pods lack, Service/gateway, replace, /spec/ports/0/targetPort, 9999]
- [selectors, a NetworkPolicy for no pod, NetworkPolicy/auth, replace, /spec/podSelector/matchLabels/app.kubernetes.io~1name, auht]
- [ingress, /api sent to web, Ingress/vault, replace, /spec/rules/0/http/paths/0/backend/service/name, web]
- [ingress, no path / to web, Ingress/vault, remove, /spec/rules/0/http/paths/1]
- [ingress, production TLS dropped, Ingress/vault, remove, /spec/tls]
- [ingress, a body size below web's nginx, Ingress/vault, replace, /metadata/annotations/$A-body-size, 10m]
- [ingress, uploads buffered by the controller, Ingress/vault, remove, /metadata/annotations/$A-request-buffering]
- [ingress, a 60 s read timeout, Ingress/vault, replace, /metadata/annotations/$A-read-timeout, '60']
- [network, default deny removed, NetworkPolicy/default-deny, delete]
- [network, auth opened to the namespace, NetworkPolicy/auth, add, /spec/ingress/-, { from: [{ podSelector: {} }], ports: [{ port: 9090 }] }]
- [network, notes reachable from web, NetworkPolicy/notes, add, /spec/ingress/-, { from: [{ podSelector: { matchLabels: { app.kubernetes.io/name: web } } }], ports: [{ port: 9090 }] }]
- [network, files opened to the ingress controller, NetworkPolicy/files, replace, /spec/ingress/0/from/0, { namespaceSelector: { matchLabels: { kubernetes.io/metadata.name: ingress-nginx } } }]
- [network, files reachable from web, NetworkPolicy/files, add, /spec/ingress/0/from/-, { podSelector: { matchLabels: { app.kubernetes.io/name: web } } }]
- [network, files' rule on a port it lacks, NetworkPolicy/files, replace, /spec/ingress/0/ports/0/port, 4014]
- [network, the gateway open to every source, NetworkPolicy/gateway, remove, /spec/ingress/0/from]
- [network, web open to every namespace, NetworkPolicy/web, replace, /spec/ingress/0/from/0/namespaceSelector, {}]
- [network, web may reach Postgres, NetworkPolicy/web, add, /spec/egress/-, { ports: [{ port: 5432 }] }]
- [network, web to the gateway's port without naming its pods, NetworkPolicy/web, remove, /spec/egress/0/to]
- [network, egress to every port, NetworkPolicy/gateway, add, /spec/egress/-, { to: [{ ipBlock: { cidr: 0.0.0.0/0 } }] }]
- [network, metrics open to every namespace, NetworkPolicy/allow-metrics, replace, /spec/ingress/0/from/0/namespaceSelector, {}]
- [network, metrics rule on the public port, NetworkPolicy/allow-metrics, replace, /spec/ingress/0/ports/0/port, 8080]
- [metrics, the gateway not annotated for scraping, Deployment/gateway, remove, /spec/template/metadata/annotations/prometheus.io~1scrape]
- [metrics, a scrape port that is not the ops listener, Deployment/notes, replace, /spec/template/metadata/annotations/prometheus.io~1port, '8080']
- [metrics, the gateway without its ops port, Deployment/gateway, remove, $C/ports/1]
- [metrics, Prometheus shut out, NetworkPolicy/allow-metrics, delete]
- [metrics, the ops port behind the gateway's Service, Service/gateway, add, /spec/ports/-, { name: health, port: 9090, targetPort: health, protocol: TCP }]
- [services, the web Deployment left out, Deployment/web, delete]
- [services, the admin Deployment left out, Deployment/admin, delete]
- [services, the admin migration left out, Job/migrate-admin, delete]
- [images, an image on latest, Deployment/web, replace, $C/image, 'registry.example.com/vault/vault-web:latest']
- [images, an untagged image, Job/migrate, replace, $C/image, vault-auth]
- [images, an image of no app, Deployment/web, replace, $C/image, 'nginx:1.27']
`
  .replaceAll('$C', '/spec/template/spec/containers/0')
  .replaceAll('$A', 'nginx.ingress.kubernetes.io~1proxy');

const SECRET = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'vault-secrets', namespace: 'vault' },
  data: { REDIS_URL: 'cmVkaXM6Ly94' },
};
const AUTH_SERVICE = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'auth', namespace: 'vault' },
  spec: { selector: { 'app.kubernetes.io/name': 'auth' }, ports: [{ name: 'health', port: 9090 }] },
};
/** Mistakes that add objects or files: {check, what, planting}. */
const PLANTED_OBJECTS = [
  { check: 'build', what: 'a resource file that does not exist', planting: { files: ['missing.yaml'] } },
  { check: 'secrets', what: 'a Secret with data', planting: { objects: [SECRET] } },
  { check: 'committed', what: 'a Secret manifest among the files', planting: { objects: [SECRET] } },
  {
    check: 'ingress',
    what: 'an Ingress path to auth',
    planting: {
      objects: [AUTH_SERVICE],
      patches: [
        {
          target: { kind: 'Ingress', name: 'vault' },
          patch: YAML.stringify([
            {
              op: 'add',
              path: '/spec/rules/0/http/paths/-',
              value: {
                path: '/health',
                pathType: 'Prefix',
                backend: { service: { name: 'auth', port: { name: 'health' } } },
              },
            },
          ]),
        },
      ],
    },
  },
];

/** The apiVersion of each kind a row deletes (a strategic-merge delete names the whole id). */
const API_VERSIONS = {
  Deployment: 'apps/v1',
  Job: 'batch/v1',
  PodDisruptionBudget: 'policy/v1',
  HorizontalPodAutoscaler: 'autoscaling/v2',
  NetworkPolicy: 'networking.k8s.io/v1',
};

/** A row of ROWS as a planting: the kustomize patch it describes. */
function fromRow([check, what, target, op, path, value, overlay = 'production']) {
  const [kind, name] = target.split('/');
  if (op === 'delete') {
    const apiVersion = API_VERSIONS[kind];
    const doomed = { $patch: 'delete', apiVersion, kind, metadata: { name, namespace: 'vault' } };
    return { check, what, overlay, planting: { patches: [{ patch: YAML.stringify(doomed) }] } };
  }
  const operation = { op, path, ...(op === 'remove' ? {} : { value }) };
  return {
    check,
    what,
    overlay,
    planting: { patches: [{ target: { kind, name }, patch: YAML.stringify([operation]) }] },
  };
}
const PLANTED = [...YAML.parse(ROWS).map(fromRow), ...PLANTED_OBJECTS];

/** A kustomization over `k8s/overlays/<overlay>` in a fresh folder under `base`, with the planting. */
function plant(base, name, overlay, { patches = [], objects = [], files = [] } = {}) {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  const written = objects.map((o, i) => {
    writeFileSync(join(dir, `planted-${i}.yaml`), YAML.stringify(o));
    return `planted-${i}.yaml`;
  });
  // kustomize takes another kustomization by relative path only.
  const resources = [relative(dir, join(k8sDir, 'overlays', overlay)), ...written, ...files];
  writeFileSync(
    join(dir, 'kustomization.yaml'),
    YAML.stringify({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources,
      patches,
    }),
  );
  return dir;
}

function selfTest() {
  check('kubectl with kustomize v5 is on PATH', () => kubectlVersions());
  const base = mkdtempSync(join(tmpdir(), 'vault-k8s-'));
  try {
    for (const overlay of OVERLAYS)
      check(`${overlay} under an empty planting passes every step`, () => {
        const problems = pipeline(plant(base, `clean-${overlay}`, overlay), overlay);
        fail(Object.entries(problems).flatMap(([id, p]) => p.map((x) => `${id}: ${x}`)));
      });
    PLANTED.forEach(({ check: id, what, planting, overlay = 'production' }, i) => {
      let seen;
      check(`${id} catches: ${what} (${overlay})`, () => {
        const problems = pipeline(plant(base, `p${i}`, overlay, planting), overlay)[id];
        if (problems === undefined) throw new Error(`not reached: the build failed`);
        if (!problems.length) throw new Error('not caught');
        seen = problems[0].split('\n')[0];
      });
      if (seen) console.log(`      → ${seen.length > 150 ? `${seen.slice(0, 150)}…` : seen}`);
    });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  for (const id of ['build', 'schema', ...Object.keys(CHECKS), 'committed'])
    check(`${id} is seen failing on at least one planted mistake`, () => {
      if (!PLANTED.some((p) => p.check === id)) throw new Error('no planted mistake for it');
    });
  check('README parsing finds the documented variables (and only variable names)', () => {
    const expect = {
      gateway: ['GATEWAY_PORT', 'SERVE_STATIC', 'TRUST_PROXY'],
      auth: ['JWT_PRIVATE_KEY_FILE', 'DB_POOL_SIZE'],
      '../infra/web': ['LISTEN_PORT', 'GATEWAY_UPSTREAM'],
    };
    for (const [app, names] of Object.entries(expect)) {
      const known = documentedVariables(app);
      for (const n of names) if (!known.has(n)) throw new Error(`${app}: ${n} missing`);
      for (const n of known)
        if (!/^[A-Z][A-Z0-9_]*$/.test(n)) throw new Error(`${app}: ${n} is no variable name`);
    }
    if (documentedVariables('gateway').has('DATABASE_URL'))
      throw new Error('gateway: DATABASE_URL is not one of its variables');
  });
}

const started = Date.now();
if (process.argv.includes('--self-test')) selfTest();
else validateAll();
console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
finish('k8s');
