#!/usr/bin/env node
// Offline checks of the Kubernetes manifests in k8s/ (docs/operations.md
// "Toolchain on the test machines"): no cluster answers here, so each overlay is rendered (by
// `kubectl kustomize` when kubectl is on PATH, else by the small built-in renderer below, which
// must then agree with kubectl's output), validated against the API schemas of
// `kubernetes-models` (types, plus unknown fields from its type declarations), and held to the
// policies in k8s/README.md.
//
//   node infra/validate-k8s.mjs               validate every overlay
//   node infra/validate-k8s.mjs --self-test   prove each check catches what it is for
//   node infra/validate-k8s.mjs --no-kubectl  behave as on a machine without kubectl
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import YAML from 'yaml';
import { SERVICES } from '../scripts/lib/stack.mjs';
import { checkRunner, documentedVariables, root } from './checks.mjs';

const require = createRequire(import.meta.url);
const k8sDir = join(root, 'k8s');
const OVERLAYS = ['dev', 'production'];

// ── policy constants (k8s/README.md explains each) ──────────────────────────────────────
/** Workloads an Ingress may point at. The nginx web front joins when it lands. */
const PUBLIC_WORKLOADS = ['gateway'];
/** Ports pods may dial out to. A new dependency (SMTP, …) is added here on purpose. */
const EGRESS_PORTS = {
  53: 'DNS',
  5432: 'Postgres',
  6379: 'Redis',
  4222: 'NATS',
  443: 'S3 (HTTPS)',
  3310: 'clamd',
  4013: "files' blob route",
  587: 'SMTP submission (recovery mail)',
  465: 'SMTPS (recovery mail)',
};
/** A container port of this name (`<service>/<name>` or any service's `<name>`) must equal this variable. */
const PORT_VARIABLES = {
  'gateway/http': 'GATEWAY_PORT',
  'files/blob': 'FILES_HTTP_PORT',
  health: 'HEALTH_PORT',
};
const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'];

// ── small helpers ───────────────────────────────────────────────────────────────────────
const clone = (v) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const idOf = (o) => `${o.kind}/${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
const byKind = (objs, kind) => objs.filter((o) => o.kind === kind);
const errorText = (e) => String(e instanceof Error ? e.message : e);

/** Keys sorted at every level: the canonical form two renders are compared in. */
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, canonical(v[k])]),
  );
}

/** The first path at which two values differ, or undefined. */
function firstDifference(a, b, path = '') {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(a) && isObject(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const d = firstDifference(a[k], b[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return a === b ? undefined : `${path || '.'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

/** Differences between two renders, compared as sets of objects (order does not matter). */
function compareRenders(mine, theirs) {
  const index = (objs) => new Map(objs.map((o) => [idOf(o), canonical(o)]));
  const a = index(mine);
  const b = index(theirs);
  const out = [];
  for (const id of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    if (!a.has(id)) out.push(`${id}: only in kubectl's output`);
    else if (!b.has(id)) out.push(`${id}: only in the built-in renderer's output`);
    else {
      const d = firstDifference(a.get(id), b.get(id));
      if (d) out.push(`${id} differs at ${d} (built-in vs kubectl)`);
    }
  }
  return out;
}

function parseDocs(text, where) {
  const docs = YAML.parseAllDocuments(text);
  const out = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`${where}: ${doc.errors[0].message}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

// ── the built-in kustomize renderer ─────────────────────────────────────────────────────
// Only what k8s/ uses: resources (files and folders), namespace, labels (without selectors),
// images, and JSON 6902 patches with a target. Anything else is refused rather than guessed.
// Transformers run in kustomize's order: patches, namespace, labels, images.

const KUSTOMIZATION_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'labels',
  'images',
  'patches',
]);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'IngressClass',
  'PriorityClass',
  'RuntimeClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'APIService',
]);
/** Kinds whose namespace handling kustomize does beyond metadata.namespace. */
const NAMESPACE_SPECIAL = new Set([
  'RoleBinding',
  'ClusterRoleBinding',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'APIService',
  'CustomResourceDefinition',
]);
const TEMPLATE_LABEL_PATHS = {
  Deployment: [['spec', 'template', 'metadata', 'labels']],
  ReplicaSet: [['spec', 'template', 'metadata', 'labels']],
  ReplicationController: [['spec', 'template', 'metadata', 'labels']],
  StatefulSet: [['spec', 'template', 'metadata', 'labels']],
  DaemonSet: [['spec', 'template', 'metadata', 'labels']],
  Job: [['spec', 'template', 'metadata', 'labels']],
  CronJob: [
    ['spec', 'jobTemplate', 'metadata', 'labels'],
    ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'labels'],
  ],
};

function pointer(path) {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new Error(`JSON pointer "${path}" must start with /`);
  return path
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function walkTo(doc, parts, op) {
  let node = doc;
  for (const part of parts) {
    const next = Array.isArray(node) ? node[Number(part)] : isObject(node) ? node[part] : undefined;
    if (next === undefined) throw new Error(`${op}: path /${parts.join('/')} does not exist`);
    node = next;
  }
  return node;
}

function arrayIndex(arr, key, allowEnd, op) {
  if (allowEnd && key === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key)) throw new Error(`${op}: "${key}" is not an array index`);
  const i = Number(key);
  if (i > arr.length || (!allowEnd && i === arr.length)) throw new Error(`${op}: index ${i} is out of range`);
  return i;
}

/** RFC 6902 add, remove, replace and test, as kustomize (evanphx/json-patch) applies them. */
function applyJsonPatch(doc, ops) {
  for (const op of ops) {
    if (!isObject(op) || typeof op.op !== 'string' || typeof op.path !== 'string')
      throw new Error(`not a JSON patch operation: ${JSON.stringify(op)}`);
    const parts = pointer(op.path);
    if (parts.length === 0) throw new Error(`${op.op} on the whole document is not supported`);
    const parent = walkTo(doc, parts.slice(0, -1), op.op);
    const key = parts[parts.length - 1];
    if (op.op === 'add') {
      if (Array.isArray(parent)) parent.splice(arrayIndex(parent, key, true, 'add'), 0, clone(op.value));
      else if (isObject(parent)) parent[key] = clone(op.value);
      else throw new Error(`add: the parent of ${op.path} is not a container`);
    } else if (op.op === 'remove' || op.op === 'replace') {
      if (Array.isArray(parent)) {
        const i = arrayIndex(parent, key, false, op.op);
        if (op.op === 'remove') parent.splice(i, 1);
        else parent[i] = clone(op.value);
      } else if (isObject(parent) && key in parent) {
        if (op.op === 'remove') delete parent[key];
        else parent[key] = clone(op.value);
      } else throw new Error(`${op.op}: path ${op.path} does not exist`);
    } else if (op.op === 'test') {
      const here = walkTo(doc, parts, 'test');
      if (firstDifference(canonical(here), canonical(op.value))) throw new Error(`test failed at ${op.path}`);
    } else throw new Error(`JSON patch op "${op.op}" is not supported by the built-in renderer`);
  }
}

const TARGET_FIELDS = new Set(['group', 'version', 'kind', 'name', 'namespace']);
function matchesTarget(obj, target) {
  for (const k of Object.keys(target))
    if (!TARGET_FIELDS.has(k))
      throw new Error(`patch target field "${k}" is not supported by the built-in renderer`);
  const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
  const values = {
    group,
    version,
    kind: obj.kind,
    name: obj.metadata?.name ?? '',
    namespace: obj.metadata?.namespace ?? '',
  };
  // kustomize matches every target field as an anchored regular expression.
  return Object.entries(target).every(([k, re]) => new RegExp(`^(?:${re})$`).test(values[k]));
}

function splitImage(image) {
  const at = image.indexOf('@');
  if (at >= 0) return { name: image.slice(0, at), tag: '', digest: image.slice(at + 1) };
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/'))
    return { name: image.slice(0, colon), tag: image.slice(colon + 1), digest: '' };
  return { name: image, tag: '', digest: '' };
}

function setImages(node, images) {
  if (Array.isArray(node)) return node.forEach((n) => setImages(n, images));
  if (!isObject(node)) return undefined;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'containers' || key === 'initContainers') && Array.isArray(value)) {
      for (const c of value) {
        if (!isObject(c) || typeof c.image !== 'string') continue;
        const cur = splitImage(c.image);
        const rule = images.find((i) => i.name === cur.name);
        if (!rule) continue;
        const name = rule.newName ?? cur.name;
        if (rule.digest) c.image = `${name}@${rule.digest}`;
        else if (rule.newTag) c.image = `${name}:${rule.newTag}`;
        else if (cur.digest) c.image = `${name}@${cur.digest}`;
        else c.image = cur.tag ? `${name}:${cur.tag}` : name;
      }
    } else setImages(value, images);
  }
  return undefined;
}

function setPath(obj, path, pairs) {
  let node = obj;
  for (const p of path) {
    if (!isObject(node[p])) node[p] = {};
    node = node[p];
  }
  Object.assign(node, pairs);
}

/** Renders the kustomization in `dir` the way `kubectl kustomize dir` would. */
function renderBuiltin(dir) {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization']
    .map((f) => join(dir, f))
    .find((f) => existsSync(f));
  if (!file) throw new Error(`${relative(root, dir) || dir}: no kustomization.yaml`);
  const where = relative(root, file);
  const k = YAML.parse(readFileSync(file, 'utf8')) ?? {};
  for (const field of Object.keys(k))
    if (!KUSTOMIZATION_FIELDS.has(field))
      throw new Error(
        `${where}: "${field}" is not supported by the built-in renderer (infra/validate-k8s.mjs)`,
      );

  let objs = [];
  for (const res of k.resources ?? []) {
    const path = resolve(dir, res);
    if (!existsSync(path)) throw new Error(`${where}: resource ${res} does not exist`);
    if (statSync(path).isDirectory()) objs.push(...renderBuiltin(path));
    else objs.push(...parseDocs(readFileSync(path, 'utf8'), relative(root, path)));
  }
  const seen = new Set();
  for (const o of objs) {
    if (!o.apiVersion || !o.kind || !o.metadata?.name)
      throw new Error(`${where}: an object lacks apiVersion/kind/name`);
    if (seen.has(idOf(o))) throw new Error(`${where}: ${idOf(o)} is defined twice`);
    seen.add(idOf(o));
  }

  for (const p of k.patches ?? []) {
    if (!p.target) throw new Error(`${where}: a patch without a target is not supported`);
    if (p.options) throw new Error(`${where}: patch options are not supported`);
    const text = p.patch ?? (p.path ? readFileSync(resolve(dir, p.path), 'utf8') : undefined);
    if (text === undefined) throw new Error(`${where}: a patch needs patch or path`);
    const ops = YAML.parse(text);
    if (!Array.isArray(ops))
      throw new Error(
        `${where}: only JSON 6902 patches (a list of operations) are supported, not strategic merge`,
      );
    const hits = objs.filter((o) => matchesTarget(o, p.target));
    if (hits.length === 0)
      throw new Error(`${where}: patch target ${JSON.stringify(p.target)} matches nothing`);
    for (const o of hits) {
      try {
        applyJsonPatch(o, ops);
      } catch (e) {
        throw new Error(`${where}: patching ${idOf(o)}: ${errorText(e)}`, { cause: e });
      }
    }
  }

  if (k.namespace !== undefined) {
    for (const o of objs) {
      if (NAMESPACE_SPECIAL.has(o.kind))
        throw new Error(
          `${where}: namespace handling of ${o.kind} is not supported by the built-in renderer`,
        );
      if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
    }
  }

  for (const entry of k.labels ?? []) {
    for (const f of Object.keys(entry))
      if (!['pairs', 'includeSelectors', 'includeTemplates'].includes(f))
        throw new Error(`${where}: labels.${f} is not supported by the built-in renderer`);
    if (entry.includeSelectors)
      throw new Error(`${where}: labels with includeSelectors are not supported (selectors are immutable)`);
    for (const o of objs) {
      setPath(o, ['metadata', 'labels'], entry.pairs);
      if (entry.includeTemplates)
        for (const path of TEMPLATE_LABEL_PATHS[o.kind] ?? []) setPath(o, path, entry.pairs);
    }
  }

  if (k.images) {
    for (const img of k.images)
      for (const f of Object.keys(img))
        if (!['name', 'newName', 'newTag', 'digest'].includes(f))
          throw new Error(`${where}: images.${f} is not supported by the built-in renderer`);
    for (const o of objs) setImages(o, k.images);
  }
  return objs;
}

// ── rendering with kubectl ──────────────────────────────────────────────────────────────
function kubectlAvailable() {
  if (process.argv.includes('--no-kubectl')) return false;
  const res = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  return !res.error && res.status === 0;
}

function renderKubectl(dir) {
  const res = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.error) throw res.error;
  if (res.status !== 0) throw new Error(res.stderr || `kubectl kustomize exited ${res.status}`);
  return parseDocs(res.stdout, `kubectl kustomize ${relative(root, dir)}`);
}

// ── schemas: kubernetes-models, plus unknown fields from its type declarations ──────────
function modelPath(obj) {
  const groupVersion = obj.apiVersion === 'v1' ? 'v1' : obj.apiVersion;
  return `kubernetes-models/${groupVersion}/${obj.kind}`;
}

const modelFile = (obj) => {
  try {
    return require.resolve(modelPath(obj)).replace(/\.js$/, '.d.ts');
  } catch {
    return undefined;
  }
};

let tsChecker;
/**
 * The declared type of an object's kind, from a TypeScript program over the declarations of
 * every kind in the render (built once per set of kinds; about a second).
 */
function declaredTypes(objs) {
  const ts = require('typescript');
  const files = [...new Set(objs.map(modelFile).filter(Boolean))].sort();
  if (tsChecker?.key !== files.join()) {
    const program = ts.createProgram(files, {
      noEmit: true,
      types: [],
      skipLibCheck: true,
      moduleResolution: ts.ModuleResolutionKind.Node10,
    });
    tsChecker = { key: files.join(), ts, program, checker: program.getTypeChecker() };
  }
  const { program, checker } = tsChecker;
  return (obj) => {
    const source = modelFile(obj) && program.getSourceFile(modelFile(obj));
    if (!source) return undefined;
    const sym = checker
      .getExportsOfModule(checker.getSymbolAtLocation(source))
      .find((s) => s.name === `I${obj.kind}`);
    return sym ? checker.getDeclaredTypeOfSymbol(sym) : undefined;
  };
}

/** Fields the API would refuse as unknown (kubectl apply validates strictly). */
function unknownFields(value, type, path, out) {
  const { ts, checker } = tsChecker;
  if (value === null || typeof value !== 'object' || !type) return;
  const t = checker.getNonNullableType(type);
  if (t.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
  if (Array.isArray(value)) {
    if (checker.isArrayType(t)) {
      const el = checker.getTypeArguments(t)[0];
      value.forEach((v, i) => unknownFields(v, el, `${path}[${i}]`, out));
    }
    return;
  }
  const members = t.isUnion() ? t.types : [t];
  const objectTypes = members.filter(
    (m) => m.getProperties().length > 0 || checker.getIndexInfosOfType(m).length,
  );
  if (objectTypes.length !== 1) return; // primitives (IntOrString, Quantity) or an ambiguous union
  const ot = objectTypes[0];
  const index = checker.getIndexInfoOfType(ot, ts.IndexKind.String);
  for (const [key, v] of Object.entries(value)) {
    const prop = ot.getProperty(key);
    if (prop) unknownFields(v, checker.getTypeOfSymbol(prop), `${path}.${key}`, out);
    else if (index) unknownFields(v, index.type, `${path}.${key}`, out);
    else out.push(`${path}.${key}: unknown field`);
  }
}

// ── facts about a render ────────────────────────────────────────────────────────────────
function podSpecOf(o) {
  if (o.kind === 'CronJob') return o.spec?.jobTemplate?.spec?.template?.spec;
  return WORKLOAD_KINDS.includes(o.kind) ? o.spec?.template?.spec : undefined;
}
function podLabelsOf(o) {
  if (o.kind === 'CronJob') return o.spec?.jobTemplate?.spec?.template?.metadata?.labels ?? {};
  return o.spec?.template?.metadata?.labels ?? {};
}
const workloads = (objs) => objs.filter((o) => WORKLOAD_KINDS.includes(o.kind));
function containersOf(o) {
  const spec = podSpecOf(o) ?? {};
  return [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
}
/** Which app an image is: registry/…/vault-<svc>:tag → <svc>. */
function serviceOfImage(image) {
  const base = splitImage(image ?? '')
    .name.split('/')
    .pop();
  return base.startsWith('vault-') ? base.slice('vault-'.length) : undefined;
}

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
  isObject(s) && Object.keys(s.matchLabels ?? {}).length === 0 && (s.matchExpressions ?? []).length === 0;

function quantity(q) {
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(q));
  if (!m) return NaN;
  const unit = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
  };
  return Number(m[1]) * (m[2] ? unit[m[2]] : 1);
}

/** Every variable a container gets, with its value where the manifests know it. */
function containerEnv(c, objs) {
  const env = new Map();
  const problems = [];
  for (const from of c.envFrom ?? []) {
    if (from.secretRef) {
      problems.push(
        `envFrom secretRef ${from.secretRef.name}: name the keys with secretKeyRef so they can be checked`,
      );
      continue;
    }
    const name = from.configMapRef?.name;
    const cm = objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name);
    if (!cm) {
      if (!from.configMapRef?.optional) problems.push(`envFrom ConfigMap ${name} is not in the render`);
      continue;
    }
    for (const [k, v] of Object.entries(cm.data ?? {}))
      env.set(`${from.prefix ?? ''}${k}`, { value: v, from: `ConfigMap ${name}` });
  }
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.configMapKeyRef;
    if (ref) {
      const cm = objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name === ref.name);
      if (!cm || !(ref.key in (cm.data ?? {})))
        problems.push(`${e.name}: ConfigMap ${ref.name} key ${ref.key} is not in the render`);
      env.set(e.name, { value: cm?.data?.[ref.key], from: `ConfigMap ${ref.name}` });
    } else env.set(e.name, { value: e.value, from: e.valueFrom ? 'valueFrom' : 'env' });
  }
  return { env, problems };
}

/** Secrets referenced by the render: name → set of keys (empty when the whole Secret is used). */
function referencedSecrets(objs) {
  const refs = new Map();
  const add = (name, key) => {
    if (!refs.has(name)) refs.set(name, new Set());
    if (key) refs.get(name).add(key);
  };
  for (const w of workloads(objs)) {
    for (const c of containersOf(w)) {
      for (const e of c.env ?? [])
        if (e.valueFrom?.secretKeyRef) add(e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.key);
      for (const f of c.envFrom ?? []) if (f.secretRef) add(f.secretRef.name);
    }
    for (const v of podSpecOf(w)?.volumes ?? []) {
      if (!v.secret) continue;
      add(v.secret.secretName);
      for (const item of v.secret.items ?? []) add(v.secret.secretName, item.key);
    }
  }
  for (const ing of byKind(objs, 'Ingress'))
    for (const tls of ing.spec?.tls ?? []) if (tls.secretName) add(tls.secretName, 'tls.crt');
  return refs;
}

// ── the checks ──────────────────────────────────────────────────────────────────────────
// Each takes a render and its context and returns the problems found (empty: passed).
const CHECKS = {
  schema: {
    title: 'every object matches its Kubernetes API schema (kubernetes-models)',
    run(objs) {
      const out = [];
      for (const o of objs) {
        let Model;
        try {
          const mod = require(modelPath(o));
          Model = mod[o.kind];
        } catch {
          out.push(`${idOf(o)}: no schema for ${o.apiVersion} ${o.kind}`);
          continue;
        }
        try {
          new Model(clone(o)).validate();
        } catch (e) {
          out.push(`${idOf(o)}: ${errorText(e)}`);
        }
      }
      return out;
    },
  },
  fields: {
    title: 'no unknown fields (what a strict API server refuses)',
    run(objs) {
      const out = [];
      const declaredType = declaredTypes(objs);
      for (const o of objs) {
        const type = declaredType(o);
        if (!type) out.push(`${idOf(o)}: no type declaration for ${o.apiVersion} ${o.kind}`);
        else unknownFields(o, type, idOf(o), out);
      }
      return out;
    },
  },
  resources: {
    title: 'every container requests and limits cpu and memory, requests ≤ limits',
    run(objs) {
      const out = [];
      for (const w of workloads(objs))
        for (const c of containersOf(w)) {
          for (const part of ['requests', 'limits'])
            for (const r of ['cpu', 'memory'])
              if (c.resources?.[part]?.[r] === undefined) out.push(`${idOf(w)} ${c.name}: no ${part}.${r}`);
          for (const r of ['cpu', 'memory']) {
            const req = quantity(c.resources?.requests?.[r]);
            const lim = quantity(c.resources?.limits?.[r]);
            if (req > lim) out.push(`${idOf(w)} ${c.name}: ${r} request is above its limit`);
          }
        }
      return out;
    },
  },
  probes: {
    title: 'every long-running container has startup, liveness and readiness probes on its own ports',
    run(objs) {
      const out = [];
      for (const w of workloads(objs)) {
        if (w.kind === 'Job' || w.kind === 'CronJob') continue;
        for (const c of podSpecOf(w)?.containers ?? []) {
          const ports = c.ports ?? [];
          for (const p of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
            const probe = c[p];
            if (!probe) {
              out.push(`${idOf(w)} ${c.name}: no ${p}`);
              continue;
            }
            const port = probe.httpGet?.port ?? probe.tcpSocket?.port ?? probe.grpc?.port;
            if (port === undefined) continue; // exec probe
            const known = ports.some((q) => q.name === port || q.containerPort === port);
            if (!known) out.push(`${idOf(w)} ${c.name}: ${p} port ${port} is not a port of the container`);
          }
        }
      }
      return out;
    },
  },
  security: {
    title:
      'every pod runs as non-root uid, read-only root, no privilege escalation, no capabilities, RuntimeDefault seccomp, no token, no service links',
    run(objs) {
      const out = [];
      for (const w of workloads(objs)) {
        const spec = podSpecOf(w) ?? {};
        const pod = spec.securityContext ?? {};
        const at = idOf(w);
        if (spec.automountServiceAccountToken !== false)
          out.push(`${at}: automountServiceAccountToken is not false`);
        if (spec.enableServiceLinks !== false)
          out.push(
            `${at}: enableServiceLinks is not false (service links inject variables like GATEWAY_PORT)`,
          );
        for (const f of ['hostNetwork', 'hostPID', 'hostIPC']) if (spec[f]) out.push(`${at}: ${f} is set`);
        const mounts = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
        for (const c of containersOf(w)) {
          const sc = c.securityContext ?? {};
          const where = `${at} ${c.name}`;
          if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) out.push(`${where}: runAsNonRoot is not true`);
          const uid = sc.runAsUser ?? pod.runAsUser;
          if (uid === undefined || uid === 0) out.push(`${where}: runAsUser is not a non-root uid`);
          if (sc.readOnlyRootFilesystem !== true) out.push(`${where}: readOnlyRootFilesystem is not true`);
          if (sc.allowPrivilegeEscalation !== false)
            out.push(`${where}: allowPrivilegeEscalation is not false`);
          if (sc.privileged) out.push(`${where}: privileged`);
          if (!(sc.capabilities?.drop ?? []).includes('ALL'))
            out.push(`${where}: capabilities do not drop ALL`);
          if ((sc.capabilities?.add ?? []).length) out.push(`${where}: capabilities are added`);
          if ((sc.seccompProfile ?? pod.seccompProfile)?.type !== 'RuntimeDefault')
            out.push(`${where}: seccompProfile is not RuntimeDefault`);
          const tmp = (c.volumeMounts ?? []).find((m) => m.mountPath === '/tmp');
          if (!tmp || !mounts.get(tmp.name)?.emptyDir || tmp.readOnly)
            out.push(`${where}: no writable emptyDir at /tmp (the root filesystem is read-only)`);
        }
      }
      return out;
    },
  },
  secrets: {
    title: 'no Secret is committed, and every referenced Secret and key is documented in k8s/README.md',
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
    title: "every variable set for a service is one of that service's (apps/<svc>/README.md)",
    run(objs) {
      const out = [];
      for (const w of workloads(objs))
        for (const c of containersOf(w)) {
          const svc = serviceOfImage(c.image);
          const { env, problems } = containerEnv(c, objs);
          out.push(...problems.map((p) => `${idOf(w)} ${c.name}: ${p}`));
          if (!svc) {
            if (env.size)
              out.push(
                `${idOf(w)} ${c.name}: image ${c.image} is no vault-<service>, so its variables cannot be checked`,
              );
            continue;
          }
          const known = documentedVariables(svc);
          if (known.size === 0) out.push(`apps/${svc}/README.md has no Configuration table to check against`);
          for (const [name, { from }] of env)
            if (!known.has(name))
              out.push(
                `${idOf(w)} ${c.name}: ${name} (from ${from}) is not a variable of ${svc} (apps/${svc}/README.md)`,
              );
        }
      return out;
    },
  },
  wiring: {
    title:
      'ports agree with the variables they listen by, *_FILE paths are mounted, referenced ConfigMaps exist',
    run(objs) {
      const out = [];
      for (const w of workloads(objs)) {
        const spec = podSpecOf(w) ?? {};
        const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
        for (const c of containersOf(w)) {
          const where = `${idOf(w)} ${c.name}`;
          const { env, problems } = containerEnv(c, objs);
          out.push(...problems.map((p) => `${where}: ${p}`));
          for (const p of c.ports ?? []) {
            const variable = PORT_VARIABLES[`${serviceOfImage(c.image)}/${p.name}`] ?? PORT_VARIABLES[p.name];
            if (!variable) continue;
            const value = env.get(variable)?.value;
            if (String(value) !== String(p.containerPort))
              out.push(
                `${where}: port ${p.name} is ${p.containerPort} but ${variable} is ${value ?? 'unset'}`,
              );
          }
          for (const [name, { value }] of env) {
            if (!name.endsWith('_FILE') || typeof value !== 'string') continue;
            const mount = (c.volumeMounts ?? []).find((m) =>
              value.startsWith(`${m.mountPath.replace(/\/$/, '')}/`),
            );
            if (!mount) {
              out.push(`${where}: ${name}=${value} is under no volume mount`);
              continue;
            }
            const items = volumes.get(mount.name)?.secret?.items;
            const file = value.slice(mount.mountPath.replace(/\/$/, '').length + 1);
            if (items && !items.some((i) => i.path === file))
              out.push(`${where}: ${name}=${value} is not among the items of volume ${mount.name}`);
          }
        }
      }
      return out;
    },
  },
  disruption: {
    title: 'every Deployment has exactly one PodDisruptionBudget',
    run(objs) {
      const out = [];
      for (const d of byKind(objs, 'Deployment')) {
        const pdbs = byKind(objs, 'PodDisruptionBudget').filter((p) =>
          selectorMatches(p.spec?.selector, podLabelsOf(d)),
        );
        if (pdbs.length !== 1) out.push(`${idOf(d)}: ${pdbs.length} PodDisruptionBudgets select its pods`);
      }
      return out;
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
        const sel = s.spec?.selector;
        const hits = sel ? ws.filter((w) => selectorMatches({ matchLabels: sel }, podLabelsOf(w))) : [];
        if (!hits.length) out.push(`${idOf(s)}: its selector matches no workload`);
        for (const p of s.spec?.ports ?? []) {
          const target = p.targetPort ?? p.port;
          for (const w of hits)
            if (
              !containersOf(w).some((c) =>
                (c.ports ?? []).some((q) => q.name === target || q.containerPort === target),
              )
            )
              out.push(`${idOf(s)}: targetPort ${target} is no container port of ${idOf(w)}`);
        }
      }
      for (const p of byKind(objs, 'PodDisruptionBudget'))
        if (!ws.some((w) => selectorMatches(p.spec?.selector, podLabelsOf(w))))
          out.push(`${idOf(p)}: its selector matches no workload`);
      for (const n of byKind(objs, 'NetworkPolicy'))
        if (
          !isEmptySelector(n.spec?.podSelector) &&
          !ws.some((w) => selectorMatches(n.spec?.podSelector, podLabelsOf(w)))
        )
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
    title: `Ingresses point only at ${PUBLIC_WORKLOADS.join(', ')} (production: with a host and TLS)`,
    run(objs, ctx) {
      const out = [];
      const ws = workloads(objs);
      const ingresses = byKind(objs, 'Ingress');
      if (!ingresses.length) out.push('no Ingress: nothing would reach the gateway');
      for (const ing of ingresses) {
        const backends = [
          ing.spec?.defaultBackend,
          ...(ing.spec?.rules ?? []).flatMap((r) => (r.http?.paths ?? []).map((p) => p.backend)),
        ].filter(Boolean);
        for (const b of backends) {
          if (!b.service) {
            out.push(`${idOf(ing)}: a backend is not a Service`);
            continue;
          }
          const svc = objs.find((o) => o.kind === 'Service' && o.metadata.name === b.service.name);
          if (!svc) {
            out.push(`${idOf(ing)}: Service ${b.service.name} is not in the render`);
            continue;
          }
          const port = b.service.port ?? {};
          if (
            !(svc.spec?.ports ?? []).some((p) =>
              port.name !== undefined ? p.name === port.name : p.port === port.number,
            )
          )
            out.push(`${idOf(ing)}: Service ${svc.metadata.name} has no port ${port.name ?? port.number}`);
          for (const w of ws.filter((x) =>
            selectorMatches({ matchLabels: svc.spec?.selector ?? {} }, podLabelsOf(x)),
          ))
            if (!PUBLIC_WORKLOADS.includes(w.metadata.name))
              out.push(
                `${idOf(ing)}: reaches ${idOf(w)} through Service ${svc.metadata.name} (public: ${PUBLIC_WORKLOADS.join(', ')})`,
              );
        }
        if (ctx.overlay === 'production') {
          const tlsHosts = (ing.spec?.tls ?? []).filter((t) => t.secretName).flatMap((t) => t.hosts ?? []);
          for (const r of ing.spec?.rules ?? []) {
            if (!r.host) out.push(`${idOf(ing)}: a rule without a host in production`);
            else if (!tlsHosts.includes(r.host)) out.push(`${idOf(ing)}: ${r.host} has no TLS in production`);
          }
        }
      }
      return out;
    },
  },
  network: {
    title:
      'default deny; public workloads accept traffic from a named source, internal ones only from named pods of the namespace, on their own ports; egress only to known ports',
    run(objs) {
      const out = [];
      const nps = byKind(objs, 'NetworkPolicy');
      const denyAll = nps.some(
        (n) =>
          isEmptySelector(n.spec?.podSelector) &&
          ['Ingress', 'Egress'].every((t) => (n.spec?.policyTypes ?? []).includes(t)) &&
          !(n.spec?.ingress ?? []).length &&
          !(n.spec?.egress ?? []).length,
      );
      if (!denyAll) out.push('no NetworkPolicy denies all ingress and egress in the namespace');
      const ws = workloads(objs);
      for (const n of nps) {
        const selected = isEmptySelector(n.spec?.podSelector)
          ? ws
          : ws.filter((w) => selectorMatches(n.spec?.podSelector, podLabelsOf(w)));
        for (const rule of n.spec?.ingress ?? []) {
          // An internal workload (files' blob route) may be called by other pods of the
          // namespace, each named by a podSelector that selects an existing workload.
          const fromNamedPods = (w) =>
            (rule.from ?? []).length > 0 &&
            rule.from.every(
              (peer) =>
                peer.podSelector &&
                !isEmptySelector(peer.podSelector) &&
                !peer.namespaceSelector &&
                !peer.ipBlock &&
                ws.some((x) => x !== w && selectorMatches(peer.podSelector, podLabelsOf(x))),
            );
          for (const w of selected) {
            if (!PUBLIC_WORKLOADS.includes(w.metadata.name) && !fromNamedPods(w)) {
              out.push(
                `${idOf(n)}: lets traffic into ${idOf(w)}, which is not public, from other than named pods of the namespace`,
              );
              continue;
            }
            const ports = containersOf(w).flatMap((c) => c.ports ?? []);
            if (!(rule.ports ?? []).length)
              out.push(`${idOf(n)}: an ingress rule for ${idOf(w)} allows every port`);
            for (const p of rule.ports ?? [])
              if (!ports.some((q) => q.containerPort === p.port || q.name === p.port))
                out.push(`${idOf(n)}: port ${p.port} is no container port of ${idOf(w)}`);
          }
          const from = rule.from ?? [];
          if (!from.length) out.push(`${idOf(n)}: an ingress rule allows every source`);
          for (const peer of from)
            if (
              peer.ipBlock?.cidr === '0.0.0.0/0' ||
              (peer.namespaceSelector && isEmptySelector(peer.namespaceSelector) && !peer.podSelector)
            )
              out.push(`${idOf(n)}: an ingress rule allows every source`);
        }
        for (const rule of n.spec?.egress ?? []) {
          if (!(rule.ports ?? []).length) out.push(`${idOf(n)}: an egress rule allows every port`);
          for (const p of rule.ports ?? [])
            if (!(p.port in EGRESS_PORTS))
              out.push(
                `${idOf(n)}: egress to port ${p.port} is not one of ${Object.keys(EGRESS_PORTS).join(', ')}`,
              );
        }
      }
      return out;
    },
  },
  services: {
    title:
      'every service `npm start` runs has a Deployment, and each that migrates a migration Job, on its image',
    run(objs) {
      const out = [];
      const runs = (kind, app, file) =>
        byKind(objs, kind).some((w) =>
          containersOf(w).some(
            (c) => serviceOfImage(c.image) === app && [c.command ?? []].flat().join(' ').includes(file),
          ),
        );
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
    title: 'every image is a vault-<service> of apps/ with an explicit tag (not latest) or digest',
    run(objs) {
      const out = [];
      for (const w of workloads(objs))
        for (const c of containersOf(w)) {
          const { tag, digest } = splitImage(c.image ?? '');
          if (!digest && (!tag || tag === 'latest'))
            out.push(`${idOf(w)} ${c.name}: image ${c.image} has no fixed tag`);
          const svc = serviceOfImage(c.image);
          if (svc && !existsSync(join(root, 'apps', svc, 'package.json')))
            out.push(`${idOf(w)} ${c.name}: image ${c.image} names no app (apps/${svc})`);
        }
      return out;
    },
  },
};

// ── output ──────────────────────────────────────────────────────────────────────────────
const { check, finish } = checkRunner();
function runCheck(id, objs, ctx) {
  const problems = CHECKS[id].run(objs, ctx);
  if (problems.length) throw new Error(problems.join('\n'));
}

/** Every file under k8s/: no Secret manifest, no secret generator. */
function committedSecrets() {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e.name)) {
        for (const doc of parseDocs(readFileSync(p, 'utf8'), relative(root, p))) {
          if (doc?.kind === 'Secret') out.push(`${relative(root, p)}: a Secret manifest`);
          if (doc?.secretGenerator) out.push(`${relative(root, p)}: a secretGenerator`);
        }
      }
    }
  };
  walk(k8sDir);
  return out;
}

function renderAll(useKubectl) {
  const renders = {};
  for (const target of ['base', ...OVERLAYS]) {
    const dir = target === 'base' ? join(k8sDir, 'base') : join(k8sDir, 'overlays', target);
    let builtin;
    let kubectl;
    check(`${target}: the built-in renderer builds it`, () => {
      builtin = renderBuiltin(dir);
    });
    if (useKubectl) {
      check(`${target}: kubectl kustomize builds it`, () => {
        kubectl = renderKubectl(dir);
      });
      check(`${target}: built-in renderer output equals kubectl kustomize's`, () => {
        if (!builtin || !kubectl) throw new Error('one of the renders failed');
        const diffs = compareRenders(builtin, kubectl);
        if (diffs.length) throw new Error(diffs.join('\n'));
      });
    }
    renders[target] = useKubectl ? kubectl : builtin;
  }
  return renders;
}

// ── self-test: each check must catch the fault it exists for ────────────────────────────
const find = (objs, kind, name) => {
  const o = objs.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`self-test: ${kind}/${name} is not in the render`);
  return o;
};
const container = (objs, kind, name) => podSpecOf(find(objs, kind, name)).containers[0];

const MUTATIONS = [
  [
    'schema',
    'a string where an integer belongs',
    (o) => (find(o, 'HorizontalPodAutoscaler', 'gateway').spec.maxReplicas = 'ten'),
  ],
  ['schema', 'a required field missing', (o) => delete find(o, 'Deployment', 'auth').spec.selector],
  ['fields', 'a misspelt field (resoruces)', (o) => (container(o, 'Deployment', 'auth').resoruces = {})],
  [
    'fields',
    'a field at the wrong level',
    (o) => (find(o, 'Deployment', 'gateway').spec.template.spec.readOnlyRootFilesystem = true),
  ],
  ['resources', 'limits dropped', (o) => delete container(o, 'Deployment', 'gateway').resources.limits],
  [
    'resources',
    'a memory request above its limit',
    (o) => (container(o, 'Deployment', 'auth').resources.requests.memory = '4Gi'),
  ],
  ['resources', 'no resources on the migration Job', (o) => delete container(o, 'Job', 'migrate').resources],
  ['probes', 'readiness probe dropped', (o) => delete container(o, 'Deployment', 'auth').readinessProbe],
  [
    'probes',
    'a probe on a port the container lacks',
    (o) => (container(o, 'Deployment', 'gateway').livenessProbe.httpGet.port = 'admin'),
  ],
  [
    'security',
    'runAsNonRoot false',
    (o) => (container(o, 'Deployment', 'gateway').securityContext.runAsNonRoot = false),
  ],
  ['security', 'running as uid 0', (o) => (container(o, 'Job', 'migrate').securityContext.runAsUser = 0)],
  [
    'security',
    'writable root filesystem',
    (o) => (container(o, 'Deployment', 'auth').securityContext.readOnlyRootFilesystem = false),
  ],
  [
    'security',
    'a capability added',
    (o) => (container(o, 'Deployment', 'auth').securityContext.capabilities.add = ['NET_ADMIN']),
  ],
  [
    'security',
    'the service account token mounted',
    (o) => delete podSpecOf(find(o, 'Deployment', 'gateway')).automountServiceAccountToken,
  ],
  [
    'security',
    'service links on',
    (o) => (podSpecOf(find(o, 'Deployment', 'auth')).enableServiceLinks = true),
  ],
  [
    'secrets',
    'a Secret with data',
    (o) =>
      o.push({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'vault-secrets', namespace: 'vault' },
        data: { REDIS_URL: 'cmVkaXM6Ly94' },
      }),
  ],
  [
    'secrets',
    'an undocumented Secret',
    (o) =>
      (container(o, 'Deployment', 'auth').env.find(
        (e) => e.name === 'DATABASE_URL',
      ).valueFrom.secretKeyRef.name = 'db-creds'),
  ],
  [
    'env',
    'an unknown variable',
    (o) => container(o, 'Deployment', 'auth').env.push({ name: 'AUTH_DEBUG_BACKDOOR', value: '1' }),
  ],
  [
    'env',
    "another service's variable",
    (o) => container(o, 'Deployment', 'gateway').env.push({ name: 'DATABASE_URL', value: 'postgres://x' }),
  ],
  [
    'env',
    'a ConfigMap key the service does not read',
    (o) => (find(o, 'ConfigMap', 'vault-config').data.GATEWAY_HOST = '0.0.0.0'),
  ],
  [
    'env',
    'the Secret passed whole (envFrom)',
    (o) => container(o, 'Deployment', 'auth').envFrom.push({ secretRef: { name: 'vault-secrets' } }),
  ],
  [
    'wiring',
    'GATEWAY_PORT not the http port',
    (o) => (find(o, 'ConfigMap', 'vault-gateway-config').data.GATEWAY_PORT = '3000'),
  ],
  [
    'wiring',
    'a key file outside the mounted items',
    (o) =>
      (container(o, 'Deployment', 'gateway').env.find((e) => e.name === 'JWT_PUBLIC_KEY_FILE').value =
        '/keys/jwt-private.pem'),
  ],
  [
    'wiring',
    'a ConfigMap that is not there',
    (o) => (container(o, 'Deployment', 'auth').envFrom[1].configMapRef.name = 'vault-authh-config'),
  ],
  [
    'disruption',
    'the auth PDB removed',
    (o) => o.splice(o.indexOf(find(o, 'PodDisruptionBudget', 'auth')), 1),
  ],
  [
    'autoscaling',
    'the gateway HPA removed',
    (o) => o.splice(o.indexOf(find(o, 'HorizontalPodAutoscaler', 'gateway')), 1),
  ],
  [
    'autoscaling',
    'an HPA from 1 in production',
    (o) => (find(o, 'HorizontalPodAutoscaler', 'auth').spec.minReplicas = 1),
  ],
  ['autoscaling', 'spec.replicas beside an HPA', (o) => (find(o, 'Deployment', 'auth').spec.replicas = 3)],
  [
    'autoscaling',
    'dev starting 2 pods',
    (o) => (find(o, 'HorizontalPodAutoscaler', 'gateway').spec.minReplicas = 2),
    'dev',
  ],
  [
    'selectors',
    'a wrong Service selector',
    (o) => (find(o, 'Service', 'gateway').spec.selector = { 'app.kubernetes.io/name': 'gatewy' }),
  ],
  [
    'selectors',
    'a wrong PDB selector',
    (o) =>
      (find(o, 'PodDisruptionBudget', 'gateway').spec.selector.matchLabels['app.kubernetes.io/name'] = 'gw'),
  ],
  [
    'selectors',
    'an HPA on a Deployment that is not there',
    (o) => (find(o, 'HorizontalPodAutoscaler', 'auth').spec.scaleTargetRef.name = 'authn'),
  ],
  [
    'selectors',
    'a Service targetPort the pods lack',
    (o) => (find(o, 'Service', 'gateway').spec.ports[0].targetPort = 9999),
  ],
  [
    'selectors',
    'a NetworkPolicy for no pod',
    (o) => (find(o, 'NetworkPolicy', 'auth').spec.podSelector.matchLabels['app.kubernetes.io/name'] = 'auht'),
  ],
  [
    'ingress',
    'an Ingress to auth',
    (o) => {
      o.push({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'auth', namespace: 'vault' },
        spec: {
          selector: { 'app.kubernetes.io/name': 'auth' },
          ports: [{ name: 'health', port: 9090, targetPort: 'health' }],
        },
      });
      find(o, 'Ingress', 'gateway').spec.rules[0].http.paths.push({
        path: '/health',
        pathType: 'Prefix',
        backend: { service: { name: 'auth', port: { name: 'health' } } },
      });
    },
  ],
  ['ingress', 'production TLS dropped', (o) => delete find(o, 'Ingress', 'gateway').spec.tls],
  [
    'network',
    'default deny removed',
    (o) => o.splice(o.indexOf(find(o, 'NetworkPolicy', 'default-deny')), 1),
  ],
  [
    'network',
    'auth opened to the namespace',
    (o) =>
      find(o, 'NetworkPolicy', 'auth').spec.ingress.push({
        from: [{ podSelector: {} }],
        ports: [{ protocol: 'TCP', port: 9090 }],
      }),
  ],
  [
    'network',
    'files opened to the ingress controller',
    (o) =>
      (find(o, 'NetworkPolicy', 'files').spec.ingress[0].from = [
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
      ]),
  ],
  [
    'network',
    'files reachable from a pod that is not there',
    (o) =>
      (find(o, 'NetworkPolicy', 'files').spec.ingress[0].from[0].podSelector.matchLabels[
        'app.kubernetes.io/name'
      ] = 'gatewy'),
  ],
  [
    'network',
    "files' blob rule on a port it lacks",
    (o) => (find(o, 'NetworkPolicy', 'files').spec.ingress[0].ports[0].port = 4014),
  ],
  [
    'wiring',
    'FILES_HTTP_PORT not the blob port',
    (o) => (find(o, 'ConfigMap', 'vault-files-config').data.FILES_HTTP_PORT = '4014'),
  ],
  [
    'network',
    'the gateway open to every source',
    (o) => delete find(o, 'NetworkPolicy', 'gateway').spec.ingress[0].from,
  ],
  [
    'network',
    'egress to any port',
    (o) => find(o, 'NetworkPolicy', 'gateway').spec.egress.push({ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }),
  ],
  [
    'images',
    'an image on latest',
    (o) => (container(o, 'Deployment', 'gateway').image = 'registry.example.com/vault/vault-gateway:latest'),
  ],
  [
    'services',
    'the admin Deployment left out',
    (o) => o.splice(o.indexOf(find(o, 'Deployment', 'admin')), 1),
  ],
  [
    'services',
    'the admin migration left out',
    (o) => o.splice(o.indexOf(find(o, 'Job', 'migrate-admin')), 1),
  ],
  [
    'network',
    'admin opened to the namespace',
    (o) =>
      (find(o, 'NetworkPolicy', 'admin').spec.ingress = [
        { from: [{ podSelector: {} }], ports: [{ protocol: 'TCP', port: 9090 }] },
      ]),
  ],
  [
    'env',
    'an unknown variable on admin',
    (o) => (find(o, 'ConfigMap', 'vault-admin-config').data.ADMIN_DEBUG = '1'),
  ],
  ['images', 'an untagged image', (o) => (container(o, 'Job', 'migrate').image = 'vault-auth')],
];

function writeTree(dir, files) {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

/** A kustomization using every feature the built-in renderer claims, in more shapes than k8s/ does. */
const FIXTURE = {
  'base/kustomization.yaml': `
resources: [app.yaml, cron.yaml]
namespace: fixture
labels:
  - pairs: { team: vault }
    includeTemplates: true
  - pairs: { tier: backend }
`,
  'base/app.yaml': `
apiVersion: v1
kind: Namespace
metadata: { name: fixture }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web-api }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      initContainers: [{ name: init, image: 'docker.io/library/busybox:1.36' }]
      containers:
        - { name: a, image: vault-x, env: [{ name: A, value: '1' }, { name: 'B/C', value: '2' }] }
        - { name: b, image: 'registry:5000/team/vault-y:old' }
---
apiVersion: v1
kind: Service
metadata: { name: web-api }
spec: { selector: { app: web }, ports: [{ port: 80 }] }
`,
  'base/cron.yaml': `
apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly }
spec:
  schedule: '0 3 * * *'
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{ name: c, image: 'vault-x@sha256:${'a'.repeat(64)}' }]
`,
  'overlay/kustomization.yaml': `
resources: [../base]
images:
  - { name: vault-x, newName: reg.example/vault-x, newTag: '2' }
  - { name: 'registry:5000/team/vault-y', newTag: new }
  - { name: docker.io/library/busybox, digest: 'sha256:${'b'.repeat(64)}' }
patches:
  - target: { kind: Deployment, name: 'web-.*' }
    patch: |-
      - { op: add, path: /spec/template/spec/containers/0/env/-, value: { name: D, value: '4' } }
      - { op: add, path: /spec/template/spec/containers/0/env/0, value: { name: Z, value: '0' } }
      - { op: remove, path: /spec/template/spec/containers/0/env/2 }
      - { op: replace, path: /spec/template/metadata/labels/app, value: web }
      - { op: add, path: /metadata/annotations, value: { 'example.com~1x': 'y' } }
      - { op: add, path: /metadata/annotations/a~1b, value: slash }
      - { op: test, path: /spec/template/spec/containers/1/name, value: b }
  - target: { group: apps, version: v1, kind: Deployment }
    path: replicas.yaml
  - target: { kind: Service|CronJob }
    patch: |-
      - { op: add, path: /metadata/labels/patched, value: 'true' }
`,
  'overlay/replicas.yaml': '- { op: add, path: /spec/replicas, value: 2 }\n',
};

/** Kustomizations the built-in renderer must refuse, and the reason it must give. */
const UNSUPPORTED = {
  commonLabels: ['commonLabels: { a: b }\nresources: []\n', /"commonLabels" is not supported/],
  secretGenerator: [
    'secretGenerator: [{ name: s, literals: [a=b] }]\n',
    /"secretGenerator" is not supported/,
  ],
  replicas: [
    'replicas: [{ name: web-api, count: 3 }]\nresources: [../base]\n',
    /"replicas" is not supported/,
  ],
  'a strategic merge patch': [
    'resources: [../base]\npatches:\n  - target: { kind: Service }\n    patch: |-\n      spec: { type: NodePort }\n',
    /only JSON 6902 patches/,
  ],
  'labels on selectors': [
    'resources: [../base]\nlabels: [{ pairs: { a: b }, includeSelectors: true }]\n',
    /includeSelectors are not supported/,
  ],
  'a patch target matching nothing': [
    'resources: [../base]\npatches:\n  - target: { kind: Ingress }\n    patch: "[]"\n',
    /matches nothing/,
  ],
  'a patch target by label': [
    'resources: [../base]\npatches:\n  - target: { labelSelector: app=web }\n    patch: "[]"\n',
    /"labelSelector" is not supported/,
  ],
};

function selfTest(renders, ctxFor, useKubectl) {
  for (const overlay of OVERLAYS)
    check(`${overlay}: the unmutated render passes every check`, () => {
      const problems = Object.keys(CHECKS).flatMap((id) =>
        CHECKS[id].run(clone(renders[overlay]), ctxFor(overlay)),
      );
      if (problems.length) throw new Error(problems.join('\n'));
    });
  for (const [id, what, mutate, overlay = 'production'] of MUTATIONS) {
    check(`${id} catches: ${what} (${overlay})`, () => {
      const objs = clone(renders[overlay]);
      mutate(objs);
      const problems = CHECKS[id].run(objs, ctxFor(overlay));
      if (!problems.length) throw new Error('not caught');
    });
  }
  for (const id of Object.keys(CHECKS))
    check(`check ${id} is exercised by at least one mutation`, () => {
      if (!MUTATIONS.some(([m]) => m === id)) throw new Error('no mutation for it');
    });

  check('parity check catches a renderer that drifts from kubectl', () => {
    const mine = clone(renders.production);
    find(mine, 'Deployment', 'gateway').metadata.labels.extra = 'x';
    const dropped = clone(renders.production).slice(1);
    if (
      !compareRenders(mine, renders.production).length ||
      !compareRenders(dropped, renders.production).length
    )
      throw new Error('a difference went unnoticed');
    if (compareRenders([...renders.production].reverse(), renders.production).length)
      throw new Error('object order counted as a difference');
  });
  check('README parsing finds the documented variables (and only variable names)', () => {
    const gw = documentedVariables('gateway');
    const auth = documentedVariables('auth');
    for (const n of ['GATEWAY_PORT', 'JWT_PUBLIC_KEY_FILE', 'TRUST_PROXY'])
      if (!gw.has(n)) throw new Error(`gateway: ${n} missing`);
    for (const n of ['JWT_PRIVATE_KEY_FILE', 'SERVER_SECRET_FILE', 'DB_POOL_SIZE'])
      if (!auth.has(n)) throw new Error(`auth: ${n} missing`);
    for (const n of gw)
      if (!/^[A-Z][A-Z0-9_]*$/.test(n)) throw new Error(`gateway: ${n} is no variable name`);
    if (gw.has('DATABASE_URL')) throw new Error('gateway: DATABASE_URL is not one of its variables');
  });

  const dir = mkdtempSync(join(tmpdir(), 'vault-k8s-'));
  try {
    writeTree(dir, FIXTURE);
    let fixture;
    check('built-in renderer: every supported feature renders as kustomize does (fixture)', () => {
      fixture = renderBuiltin(join(dir, 'overlay'));
      const d = find(fixture, 'Deployment', 'web-api');
      const cron = find(fixture, 'CronJob', 'nightly');
      const expect = [
        [find(fixture, 'Namespace', 'fixture').metadata.namespace, undefined],
        [d.metadata.namespace, 'fixture'],
        [d.spec.template.metadata.labels.team, 'vault'],
        [d.spec.template.metadata.labels.tier, undefined],
        [d.spec.selector.matchLabels.team, undefined],
        [cron.spec.jobTemplate.spec.template.metadata.labels.team, 'vault'],
        [d.spec.template.spec.containers[0].image, 'reg.example/vault-x:2'],
        [d.spec.template.spec.containers[1].image, 'registry:5000/team/vault-y:new'],
        [d.spec.template.spec.initContainers[0].image, `docker.io/library/busybox@sha256:${'b'.repeat(64)}`],
        // A newTag replaces a digest (as kustomize does).
        [cron.spec.jobTemplate.spec.template.spec.containers[0].image, 'reg.example/vault-x:2'],
        [d.spec.template.spec.containers[0].env.map((e) => e.name).join(','), 'Z,A,D'],
        // ~1 is unescaped in paths only, not in the keys of a value.
        [d.metadata.annotations['example.com~1x'], 'y'],
        [d.metadata.annotations['a/b'], 'slash'],
        [d.spec.replicas, 2],
        [cron.metadata.labels.patched, 'true'],
      ];
      const wrong = expect
        .filter(([got, want]) => got !== want)
        .map(([got, want]) => `${JSON.stringify(got)} instead of ${JSON.stringify(want)}`);
      if (wrong.length) throw new Error(wrong.join('\n'));
    });
    if (useKubectl)
      check('built-in renderer: the fixture equals kubectl kustomize', () => {
        const diffs = compareRenders(fixture ?? [], renderKubectl(join(dir, 'overlay')));
        if (diffs.length) throw new Error(diffs.join('\n'));
      });
    for (const [what, [text, reason]] of Object.entries(UNSUPPORTED))
      check(`built-in renderer refuses ${what}`, () => {
        const k = join(dir, 'refuse');
        rmSync(k, { recursive: true, force: true });
        writeTree(k, { 'kustomization.yaml': text.replace('../base', join(dir, 'base')) });
        let error;
        try {
          renderBuiltin(k);
        } catch (e) {
          error = errorText(e);
        }
        if (error === undefined) throw new Error('rendered it anyway');
        if (!reason.test(error)) throw new Error(`refused for another reason: ${error}`);
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ── main ────────────────────────────────────────────────────────────────────────────────
const started = Date.now();
const selfTesting = process.argv.includes('--self-test');
const useKubectl = kubectlAvailable();
console.log(
  useKubectl
    ? '  · rendering with kubectl kustomize; the built-in renderer must agree'
    : '  · kubectl not on PATH (or --no-kubectl): rendering with the built-in renderer only',
);
const readmePath = join(k8sDir, 'README.md');
const readme = existsSync(readmePath) ? readFileSync(readmePath, 'utf8') : '';
const ctxFor = (overlay) => ({ overlay, readme });

const renders = renderAll(useKubectl);
if (!selfTesting) {
  check('k8s/ commits no Secret manifest and no secretGenerator', () => {
    const found = committedSecrets();
    if (found.length) throw new Error(found.join('\n'));
  });
  for (const overlay of OVERLAYS) {
    const objs = renders[overlay];
    for (const [id, c] of Object.entries(CHECKS))
      check(`${overlay}: ${c.title}`, () => {
        if (!objs) throw new Error('the overlay did not render');
        runCheck(id, clone(objs), ctxFor(overlay));
      });
  }
} else if (OVERLAYS.every((o) => renders[o])) {
  selfTest(renders, ctxFor, useKubectl);
} else
  check('self-test needs every overlay rendered', () => {
    throw new Error('an overlay did not render');
  });

console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
finish('k8s');
