// The maintained tools of the Kubernetes validation (k8s/README.md "How the manifests are
// validated"): `kubectl kustomize` builds a kustomization exactly as `kubectl apply -k` would, and
// kubernetes-models validates every object it prints against the official API schema of its
// apiVersion and kind. Nothing here interprets kustomize or a schema itself.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import YAML from 'yaml';

const require = createRequire(import.meta.url);

/** kustomize v5 (kubectl 1.27+): what the manifests are written for (labels, patches with targets). */
const KUSTOMIZE_MAJOR = 5;
const INSTALL_HINT =
  'install kubectl 1.27 or newer (its built-in kustomize v5 builds k8s/); Debian 12 has only kubectl 1.20';

/** kubectl's client and kustomize versions; throws when kubectl is missing or too old. */
export function kubectlVersions() {
  const res = spawnSync('kubectl', ['version', '--client', '--output=json'], { encoding: 'utf8' });
  if (res.error || res.status !== 0)
    throw new Error(
      `kubectl is not on PATH or does not run (${res.error?.message ?? res.stderr.trim()}): ${INSTALL_HINT}`,
    );
  const info = JSON.parse(res.stdout);
  const kustomize = info.kustomizeVersion ?? '';
  const major = Number(/^v?(\d+)\./.exec(kustomize)?.[1] ?? 0);
  if (major < KUSTOMIZE_MAJOR)
    throw new Error(
      `kubectl ${info.clientVersion?.gitVersion} has kustomize ${kustomize || 'unknown'}: ${INSTALL_HINT}`,
    );
  return { kubectl: info.clientVersion?.gitVersion, kustomize };
}

/** The objects `kubectl kustomize dir` prints; throws with kubectl's own message when the build fails. */
export function kustomizeBuild(dir) {
  const res = spawnSync('kubectl', ['kustomize', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (res.error) throw res.error;
  if (res.status !== 0) {
    // kubectl logs `... "command failed" err="<kustomize's message>"`: keep the message.
    const text = (res.stderr || `kubectl kustomize exited ${res.status}`).trim();
    const quoted = /err="((?:[^"\\]|\\.)*)"/.exec(text)?.[1];
    throw new Error(quoted ? quoted.replace(/\\(.)/g, '$1') : text);
  }
  return YAML.parseAllDocuments(res.stdout)
    .map((doc) => doc.toJS())
    .filter((o) => o !== null && o !== undefined);
}

/** Every object against its kubernetes-models class (`kubernetes-models/<apiVersion>/<Kind>`). */
export function schemaProblems(objs) {
  const out = [];
  for (const o of objs) {
    const id = `${o.kind}/${o.metadata?.name}`;
    let Model;
    try {
      Model = require(`kubernetes-models/${o.apiVersion}/${o.kind}`)[o.kind];
    } catch {
      Model = undefined;
    }
    if (!Model) {
      out.push(`${id}: kubernetes-models has no schema for ${o.apiVersion} ${o.kind}`);
      continue;
    }
    try {
      new Model(JSON.parse(JSON.stringify(o))).validate();
    } catch (e) {
      out.push(`${id}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}
