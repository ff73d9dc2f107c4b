// Offline checks of the Dockerfile (no engine runs here): the runtime stage may copy compiled
// output, package manifests and production dependencies only, never sources, tests, specs or
// test servers; and dependencies are installed by `npm ci` alone, with an npm that honours
// package.json's `allowScripts`. infra/validate.mjs runs these on the real Dockerfile and on
// planted mistakes (each must be caught), in `npm test`'s deploy tier.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join, posix } from 'node:path';

const require = createRequire(import.meta.url);

/** Folder names that hold sources or test code; none may be copied into the runtime image. */
export const TEST_DIRS = ['src', 'test', 'tests', '__tests__', '__mocks__', 'testing', 'e2e', 'bench'];
/** Spec and test files, in sources or compiled (`x.spec.ts`, `x.spec.js`, `x.e2e-spec.ts.map`). */
const SPEC_FILE = /\.(spec|test|e2e-spec)\.[cm]?[jt]sx?(\.map)?$|\.(spec|test)\.d\.ts(\.map)?$/;
/** Folders a workspace walk skips: build output (checked through its tsconfig) and tool state. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.data', '.nx', 'dist', 'coverage', 'test-results']);
/**
 * The npm that package.json's `allowScripts` is checked with (the npm of these machines,
 * docs/operations.md "Toolchain on the test machines"): listed packages run their install
 * scripts, `false` ones (@scarf/scarf) are skipped and keep their bins (npm/cli#9681). The npm
 * that Node 22 bundles is older: it ignores the field and runs every install script.
 */
export const MIN_NPM_FOR_ALLOW_SCRIPTS = '11.19.1';

// ── parsing ─────────────────────────────────────────────────────────────────────────────

/** Splits a shell-ish argument string on whitespace, honouring simple quotes. */
function words(text) {
  const out = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/**
 * The Dockerfile as stages of instructions. Handles parser directives, comments, line
 * continuations (including comment lines inside them), heredocs, and the exec (JSON) form.
 */
export function parseDockerfile(text) {
  const lines = text.split(/\r?\n/);
  let escape = '\\';
  for (const line of lines) {
    const directive = /^#\s*([a-z]+)\s*=\s*(\S+)\s*$/i.exec(line);
    if (!directive) break;
    if (directive[1].toLowerCase() === 'escape') escape = directive[2];
  }
  const instructions = [];
  for (let i = 0; i < lines.length; i += 1) {
    const first = lines[i];
    if (/^\s*(#|$)/.test(first)) continue;
    const start = i + 1;
    let body = first;
    while (body.trimEnd().endsWith(escape) && i + 1 < lines.length) {
      body = body.trimEnd().slice(0, -escape.length);
      i += 1;
      while (i < lines.length && /^\s*#/.test(lines[i])) i += 1;
      body += ` ${lines[i] ?? ''}`;
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(body);
    if (!m) continue;
    const cmd = m[1].toUpperCase();
    let args = m[2].trim();
    // Heredocs (`RUN <<EOF` … `EOF`): the body is part of the instruction.
    for (const h of args.matchAll(/<<-?(["']?)([A-Za-z_][\w]*)\1/g)) {
      const end = h[2];
      const doc = [];
      while (i + 1 < lines.length && lines[i + 1].trim() !== end) doc.push(lines[(i += 1)]);
      i += 1;
      args += `\n${doc.join('\n')}`;
    }
    instructions.push({ cmd, args, line: start });
  }

  const globalArgs = {};
  const stages = [];
  for (const ins of instructions) {
    if (ins.cmd === 'FROM') {
      const parts = words(ins.args).filter((w) => !w.startsWith('--'));
      const asAt = parts.findIndex((w) => w.toLowerCase() === 'as');
      const base = parts[0] ?? '';
      const name = asAt >= 0 ? parts[asAt + 1] : undefined;
      const parent = stages.find((s) => s.name && s.name === base);
      stages.push({
        name,
        base,
        parent,
        index: stages.length,
        workdir: parent ? parent.workdir : '/',
        args: { ...(parent?.args ?? {}) },
        instructions: [],
      });
      continue;
    }
    const stage = stages[stages.length - 1];
    if (!stage) {
      if (ins.cmd === 'ARG') Object.assign(globalArgs, argDefaults(ins.args));
      continue;
    }
    if (ins.cmd === 'ARG') {
      for (const [k, v] of Object.entries(argDefaults(ins.args)))
        stage.args[k] = v ?? globalArgs[k] ?? stage.args[k];
    }
    if (ins.cmd === 'WORKDIR') stage.workdir = posix.resolve(stage.workdir, ins.args.trim());
    const parsed = { ...ins, workdir: stage.workdir };
    if (ins.cmd === 'COPY' || ins.cmd === 'ADD') Object.assign(parsed, parseCopy(ins.args));
    stage.instructions.push(parsed);
  }
  return { globalArgs, stages };
}

function argDefaults(text) {
  const out = {};
  for (const w of words(text)) {
    const [k, ...v] = w.split('=');
    out[k] = v.length ? v.join('=') : undefined;
  }
  return out;
}

function parseCopy(text) {
  const flags = {};
  let rest = text.trim();
  for (let m = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest); m; m = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest)) {
    flags[m[1]] = m[2] ?? true;
    rest = rest.slice(m[0].length);
  }
  let paths;
  if (rest.startsWith('[')) {
    try {
      paths = JSON.parse(rest.split('\n')[0]);
    } catch {
      paths = words(rest);
    }
  } else paths = words(rest.split('\n')[0]);
  const heredoc = paths.some((p) => /^<</.test(p));
  return {
    flags,
    sources: paths.slice(0, -1).filter((p) => !/^<</.test(p)),
    dest: paths[paths.length - 1] ?? '',
    heredoc,
  };
}

/** The stage `docker build` produces: the compose target if one is named, else the last. */
export function runtimeStage(parsed, target) {
  if (target) return parsed.stages.find((s) => s.name === target);
  return parsed.stages[parsed.stages.length - 1];
}

/** A stage and the stages it is built FROM, oldest first. */
function chain(stage) {
  const out = [];
  for (let s = stage; s; s = s.parent) out.unshift(s);
  return out;
}

// ── paths ───────────────────────────────────────────────────────────────────────────────

/** `${NAME}`, `$NAME` and `${NAME:-x}` as one opaque token, so they never look like a folder name. */
const VAR = /\$\{[^}]+\}|\$[A-Za-z_]\w*/g;
const HAS_VAR = /\$\{[^}]+\}|\$[A-Za-z_]\w*/;
const hasGlob = (seg) => /[*?[]/.test(seg.replace(VAR, ''));

/**
 * Where a COPY source lives, relative to the workspace root when it is the build context or a
 * stage of this Dockerfile (its WORKDIR is where the workspace was copied), else absolute.
 */
function sourcePath(parsed, copy, src) {
  const from = copy.flags.from;
  if (from === undefined) {
    return { rel: posix.normalize(`/${src}`).slice(1), origin: 'the build context' };
  }
  const stage = parsed.stages.find((s) => s.name === from || String(s.index) === from);
  const abs = posix.normalize(`/${src}`);
  if (!stage) return { rel: null, abs, origin: `image ${from}` };
  const root = stage.workdir === '/' ? '/' : `${stage.workdir}/`;
  if (abs === stage.workdir) return { rel: '', abs, origin: `stage ${from}`, stage };
  if (abs.startsWith(root)) return { rel: abs.slice(root.length), abs, origin: `stage ${from}`, stage };
  return { rel: null, abs, origin: `stage ${from}`, stage };
}

/** One path segment (with globs and variables) as a regular expression. */
function segmentRegex(seg) {
  let re = '';
  const parts = seg.split(VAR);
  const vars = seg.match(VAR) ?? [];
  parts.forEach((part, n) => {
    for (let i = 0; i < part.length; i += 1) {
      const c = part[i];
      if (c === '*') re += '[^/]*';
      else if (c === '?') re += '[^/]';
      else if (c === '[') {
        const close = part.indexOf(']', i + 1);
        if (close < 0) re += '\\[';
        else {
          re += `[${part
            .slice(i + 1, close)
            .replace(/^!/, '^')
            .replace(/\\/g, '\\\\')}]`;
          i = close;
        }
      } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
    }
    if (n < vars.length) re += '[^/]+';
  });
  return new RegExp(`^${re}$`);
}

/** A path with ${SERVICE} as each service the compose file builds (the image's build arg). */
function withServices(rel, services = []) {
  if (!/\$\{SERVICE\}|\$SERVICE\b/.test(rel)) return [rel];
  return services.map((s) => rel.replace(/\$\{SERVICE\}|\$SERVICE\b/g, s));
}

/** Files of the workspace (sources only: build output and tool folders are skipped). */
export function workspaceFiles(root) {
  const out = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) walk(p);
      } else out.push(p);
    }
  };
  walk('');
  return out;
}

/** Workspace files a COPY source takes along (the source itself, or everything below it). */
function filesUnder(rel, files) {
  const segs = rel === '' ? [] : rel.split('/');
  const res = segs.map(segmentRegex);
  return files.filter((f) => {
    const fs = f.split('/');
    return fs.length >= res.length && res.every((re, i) => re.test(fs[i]));
  });
}

/** Why a workspace path is test code or source, or undefined. */
export function testCodeIn(path, { sourcesToo = true } = {}) {
  const segs = path.split('/');
  const dirs = sourcesToo ? TEST_DIRS : TEST_DIRS.filter((d) => d !== 'src');
  const dir = segs.slice(0, -1).find((s) => dirs.includes(s));
  if (dir) return `under ${dir}/`;
  const name = segs[segs.length - 1] ?? '';
  if (SPEC_FILE.test(name)) return 'a spec/test file';
  if (sourcesToo && /\.[cm]?tsx?$/.test(name) && !/\.d\.[cm]?ts$/.test(name)) return 'a TypeScript source';
  return undefined;
}

// ── the runtime stage ───────────────────────────────────────────────────────────────────

/**
 * Problems with what the runtime stage (and any stage it is built FROM) copies: test code
 * named in the path, a folder that holds test code or sources in the workspace (a whole app or
 * lib folder, the workspace itself), build output whose tsconfig compiles test code, or
 * node_modules with dev dependencies.
 *
 * ctx: { root, services (SERVICE build-arg values), files (workspace files), readTsconfig }
 */
export function runtimeCopyProblems(parsed, ctx) {
  const problems = [];
  const stage = runtimeStage(parsed, ctx.target);
  if (!stage) return ['the Dockerfile has no runtime stage'];
  const files = ctx.files ?? workspaceFiles(ctx.root);
  const emitters = ctx.emitters ?? tsconfigEmitters(ctx.root, ctx.readTsconfig);
  for (const st of chain(stage)) {
    for (const copy of st.instructions.filter((i) => i.cmd === 'COPY' || i.cmd === 'ADD')) {
      const at = `line ${copy.line} (${copy.cmd} ${copy.args.split('\n')[0].replace(/\s+/g, ' ')})`;
      for (const src of copy.sources) {
        if (/^[a-z]+:\/\//i.test(src) || /^git@/.test(src)) {
          problems.push(`${at}: copies ${src} from outside the workspace into the runtime image`);
          continue;
        }
        const where = sourcePath(parsed, copy, src);
        if (where.rel === null) continue; // an absolute path of another image (not the workspace)
        const rel = where.rel;
        const segs = rel === '' ? [] : rel.split('/');
        const last = segs[segs.length - 1] ?? '';
        // 1. Test code named in the path itself (a folder on the way, or the copied file/folder).
        const named =
          segs.slice(0, -1).find((s) => TEST_DIRS.includes(s)) ??
          (TEST_DIRS.find((d) => segmentRegex(last).test(d) && (last === d || hasGlob(last))) || undefined);
        if (named) {
          problems.push(`${at}: copies ${named === 'src' ? 'sources' : 'test code'} (${named}/)`);
          continue;
        }
        if (SPEC_FILE.test(last) || /\.(spec|test|e2e-spec)\./.test(last)) {
          problems.push(`${at}: copies spec/test files (${last})`);
          continue;
        }
        // 2. A whole workspace, app or lib folder (whatever it holds today).
        if (segs.length === 0) {
          problems.push(`${at}: copies the whole workspace from ${where.origin}`);
          continue;
        }
        if (segs.length <= 2 && ['apps', 'libs', 'bench'].includes(segs[0]) && last !== 'package.json') {
          problems.push(`${at}: copies a whole ${segs[0] === 'libs' ? 'lib' : 'app'} folder (${rel})`);
          continue;
        }
        // 3. A folder that holds test code or sources in the workspace.
        const held = withServices(rel, ctx.services)
          .flatMap((r) => filesUnder(r, files))
          .map((f) => [f, testCodeIn(f)])
          .filter(([, why]) => why);
        if (held.length) {
          problems.push(
            `${at}: ${rel} holds test code or sources: ${held
              .slice(0, 3)
              .map(([f, why]) => `${f} (${why})`)
              .join(', ')}${held.length > 3 ? `, … ${held.length - 3} more` : ''}`,
          );
          continue;
        }
        // 4. Build output: what its tsconfig compiles into it.
        if (where.stage && segs.includes('dist')) {
          const distRel = segs.slice(0, segs.indexOf('dist') + 1).join('/');
          for (const dir of expandDirs(distRel, ctx)) {
            const into = emitters.filter((e) => e.outDir === dir || e.outDir.startsWith(`${dir}/`));
            if (!into.length && !isBundle(ctx.root, dir) && existsSync(join(ctx.root, dir, '..')))
              problems.push(`${at}: no tsconfig or bundler config says what ${dir} holds`);
            for (const e of into) {
              const bad = e.inputs.map((f) => [f, testCodeIn(f, { sourcesToo: false })]).filter(([, w]) => w);
              if (bad.length)
                problems.push(
                  `${at}: ${e.config} compiles test code into ${dir}: ${bad
                    .slice(0, 3)
                    .map(([f, why]) => `${f} (${why})`)
                    .join(', ')}${bad.length > 3 ? `, … ${bad.length - 3} more` : ''}`,
                );
            }
          }
        }
        // 5. Dependencies: only a stage that dropped the dev dependencies (jest, s3rver, …).
        if (last === 'node_modules' && where.stage && !omitsDev(where.stage))
          problems.push(
            `${at}: node_modules from stage ${where.stage.name ?? where.stage.index} holds the dev dependencies (test runners, test servers); copy it from a stage that ran npm prune --omit=dev`,
          );
      }
    }
  }
  return problems;
}

/** The workspace folders a source path names, with ${SERVICE} as each built service. */
function expandDirs(rel, ctx) {
  const segs = rel.split('/');
  let dirs = [''];
  for (const seg of segs) {
    const next = [];
    for (const d of dirs) {
      if (/^\$\{?SERVICE\}?$/.test(seg)) for (const s of ctx.services) next.push(d ? `${d}/${s}` : s);
      else if (hasGlob(seg) || HAS_VAR.test(seg)) {
        let entries = [];
        try {
          entries = readdirSync(join(ctx.root, d), { withFileTypes: true });
        } catch {
          /* nothing there */
        }
        const re = segmentRegex(seg);
        for (const e of entries)
          if (e.isDirectory() && re.test(e.name)) next.push(d ? `${d}/${e.name}` : e.name);
      } else next.push(d ? `${d}/${seg}` : seg);
    }
    dirs = next;
  }
  return dirs;
}

const isBundle = (root, dir) =>
  ['vite.config.ts', 'vite.config.mjs', 'vite.config.js'].some((f) => existsSync(join(root, dir, '..', f)));

function omitsDev(stage) {
  return chain(stage).some((s) =>
    s.instructions.some(
      (i) =>
        i.cmd === 'RUN' &&
        /\bnpm\s+(ci|prune|install|i)\b[^&|;\n]*(--omit[= ]dev|--production)\b/.test(i.args),
    ),
  );
}

/** Every tsconfig*.json at an app's or lib's root that emits, with its outDir and inputs. */
export function tsconfigEmitters(root, readTsconfig = defaultReadTsconfig) {
  const out = [];
  for (const group of ['apps', 'libs']) {
    let projects = [];
    try {
      projects = readdirSync(join(root, group));
    } catch {
      continue;
    }
    for (const p of projects) {
      let names = [];
      try {
        names = readdirSync(join(root, group, p)).filter((n) => /^tsconfig.*\.json$/.test(n));
      } catch {
        continue;
      }
      for (const n of names) {
        const config = `${group}/${p}/${n}`;
        const parsed = readTsconfig(root, config);
        if (!parsed || parsed.options.noEmit || !parsed.options.outDir) continue;
        const rel = (abs) => posix.relative(root.replace(/\\/g, '/'), abs.replace(/\\/g, '/'));
        out.push({
          config,
          outDir: rel(parsed.options.outDir),
          inputs: parsed.fileNames.filter((f) => !/\.d\.[cm]?ts$/.test(f)).map(rel),
        });
      }
    }
  }
  return out;
}

/** TypeScript's own reading of a tsconfig (extends, include/exclude, outDir). */
export function defaultReadTsconfig(root, config, override) {
  const ts = require('typescript');
  const file = join(root, config);
  const json = override ?? ts.readConfigFile(file, ts.sys.readFile).config;
  if (!json) return undefined;
  return ts.parseJsonConfigFileContent(json, ts.sys, join(file, '..'), undefined, file);
}

/**
 * What each built service needs in the runtime image: its package.json and dist, and the
 * package.json and dist of every lib (they are linked from node_modules/@vault).
 */
export function runtimeNeeds(libs) {
  return [
    'package.json',
    'apps/${SERVICE}/package.json',
    'apps/${SERVICE}/dist',
    ...libs.flatMap((l) => [`libs/${l}/package.json`, `libs/${l}/dist`]),
  ];
}

/** Needed paths the runtime stage does not copy to the same place. */
export function missingRuntimeFiles(parsed, needs, target) {
  const stage = runtimeStage(parsed, target);
  if (!stage) return needs;
  const landed = [];
  // The stage's own copies and those of the stages it is built FROM (node-base holds the libs).
  const copies = chain(stage).flatMap((st) =>
    st.instructions.filter((i) => i.cmd === 'COPY' || i.cmd === 'ADD'),
  );
  for (const copy of copies) {
    const destAbs = posix.resolve(copy.workdir, copy.dest);
    const intoDir = copy.dest.endsWith('/') || copy.sources.length > 1;
    for (const src of copy.sources) {
      const where = sourcePath(parsed, copy, src);
      if (where.rel === null) continue;
      const isFile = /\.[a-z0-9]+$/i.test(basename(where.rel));
      const at = isFile && intoDir ? posix.join(destAbs, basename(where.rel)) : destAbs;
      const root = stage.workdir === '/' ? '/' : `${stage.workdir}/`;
      if (at.startsWith(root)) landed.push([where.rel, at.slice(root.length)]);
    }
  }
  const norm = (p) => p.replace(/\$\{SERVICE\}|\$SERVICE\b/g, '${SERVICE}');
  return needs.filter((n) => !landed.some(([src, dst]) => norm(src) === n && norm(dst) === n));
}

// ── dependencies ────────────────────────────────────────────────────────────────────────

function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** An npm command's arguments install globally (`-g`, `--global`, `--location=global`). */
const isGlobal = (args) =>
  args.includes('-g') || args.includes('--global') || args.includes('--location=global');

/** The shell commands of a RUN (split on &&, ||, ;, |), each with the operator before it. */
function commands(run) {
  const out = [];
  let op = '';
  for (const part of run.split(/(&&|\|\||;|\||\n)/)) {
    if (['&&', '||', ';', '|', '\n'].includes(part)) op = part;
    else if (part.trim()) {
      out.push({ op, argv: words(part.trim()) });
      op = '';
    }
  }
  return out;
}

/**
 * Problems with how dependencies are installed: `npm ci` must install the lockfile with no
 * fallback to `npm install`, nothing may bypass the install-script policy, and when
 * package.json has `allowScripts` the npm running `npm ci` must be pinned to one that reads it.
 */
export function dependencyProblems(parsed, { allowScripts }) {
  const problems = [];
  let ciSeen = false;
  for (const stage of parsed.stages) {
    let npm = null; // the npm version this stage installed (or inherited), if any
    for (const s of chain(stage).slice(0, -1))
      for (const i of s.instructions) if (i.cmd === 'RUN') npm = npmPin(i, s, parsed) ?? npm;
    for (const ins of stage.instructions.filter((i) => i.cmd === 'RUN')) {
      const cmds = commands(ins.args);
      cmds.forEach(({ argv }, n) => {
        const at = `line ${ins.line}`;
        const [tool, verb, ...rest] = argv.filter((w) => !/^[A-Z_]+=/.test(w));
        if (tool !== 'npm') return;
        const all = [verb, ...rest];
        if (all.includes('--dangerously-allow-all-scripts') || all.includes('--ignore-scripts'))
          problems.push(
            `${at}: ${all.includes('--ignore-scripts') ? '--ignore-scripts' : '--dangerously-allow-all-scripts'} bypasses package.json's allowScripts`,
          );
        const global = isGlobal(rest);
        if (
          ['install', 'i', 'add', 'isntall', 'in', 'ins', 'inst', 'insta', 'instal', 'update', 'up'].includes(
            verb,
          ) &&
          !global
        )
          problems.push(
            `${at}: npm ${verb} in the workspace (the lockfile is installed by npm ci, with no fallback)`,
          );
        if (verb === 'ci') {
          ciSeen = true;
          if (cmds[n + 1]?.op === '||')
            problems.push(
              `${at}: npm ci falls back to another command when it fails (${cmds[n + 1].argv.join(' ')})`,
            );
          if (allowScripts) {
            if (!npm)
              problems.push(
                `${at}: npm ci runs the image's bundled npm, which may ignore package.json's allowScripts; install npm ${MIN_NPM_FOR_ALLOW_SCRIPTS} or newer first (npm install -g npm@<exact version>)`,
              );
            else if (!/^\d+\.\d+\.\d+$/.test(npm))
              problems.push(
                `${at}: npm ci runs npm@${npm}; pin an exact version (${MIN_NPM_FOR_ALLOW_SCRIPTS} or newer)`,
              );
            else if (compareVersions(npm, MIN_NPM_FOR_ALLOW_SCRIPTS) < 0)
              problems.push(
                `${at}: npm ci runs npm ${npm}, older than ${MIN_NPM_FOR_ALLOW_SCRIPTS} (the npm that honours allowScripts as package.json sets it)`,
              );
          }
        }
      });
      npm = npmPin(ins, stage, parsed) ?? npm;
    }
  }
  if (!ciSeen) problems.push('no stage installs the dependencies with npm ci');
  return problems;
}

/** The npm version a RUN installs globally (`npm install -g npm@X`), ARGs resolved. */
function npmPin(ins, stage, parsed) {
  for (const { argv } of commands(ins.args)) {
    const [tool, verb, ...rest] = argv;
    if (tool !== 'npm' || !['install', 'i', 'add'].includes(verb)) continue;
    if (!isGlobal(rest)) continue;
    const spec = rest.find((w) => /^npm@/.test(w));
    if (!spec) continue;
    return spec
      .slice(4)
      .replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => stage.args[a ?? b] ?? parsed.globalArgs[a ?? b] ?? '');
  }
  return null;
}

/** Reads the root package.json's allowScripts (undefined when absent). */
export function allowScriptsOf(root) {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).allowScripts;
}

// ── the web image (target `web`: the built web app on unprivileged nginx) ───────────────

/** The base the web image must be built FROM: the unprivileged nginx, pinned to a release. */
const PINNED_NGINX =
  /^nginxinc\/nginx-unprivileged:\d+\.\d+\.\d+-alpine(\d+(\.\d+)*)?(@sha256:[0-9a-f]{64})?$/;
/** What the web image may take from the workspace: the built app and infra/web's own files. */
const WEB_SOURCES = [/^apps\/web\/dist$/, /^infra\/web\/[\w.-]+\.template$/, /^infra\/web\/render\.sh$/];

/**
 * Problems with the web image (docs/operations.md "The web tier"): built FROM the unprivileged
 * nginx at a pinned release, never switched to root, copying the built app and infra/web's
 * templates and render script only (the app to WEB_ROOT), render.sh as an executable
 * /docker-entrypoint.d script, nginx started on the rendered configuration, and a healthcheck.
 */
export function webImageProblems(parsed, target = 'web') {
  const stage = parsed.stages.find((s) => s.name === target);
  if (!stage) return [`the Dockerfile has no stage ${target}`];
  const problems = [];
  const resolve = (text) =>
    text.replace(/\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)/g, (_, a, dflt, b) => {
      const name = a ?? b;
      return stage.args[name] ?? parsed.globalArgs[name] ?? dflt ?? '';
    });
  const base = resolve(stage.base);
  if (!PINNED_NGINX.test(base))
    problems.push(`FROM ${base}: build on nginxinc/nginx-unprivileged at a pinned release (<x.y.z>-alpine)`);
  const of = (cmd) => stage.instructions.filter((i) => i.cmd === cmd);
  const users = of('USER').map((u) => u.args.trim().split(':')[0]);
  if (users.some((u) => ['root', '0'].includes(u)))
    problems.push(`USER ${users.find((u) => ['root', '0'].includes(u))}: the web image never runs as root`);
  const env = Object.fromEntries(
    of('ENV').flatMap((e) => words(e.args.replace(/\\\s*\n/g, ' ')).map((w) => w.split('='))),
  );
  for (const copy of [...of('COPY'), ...of('ADD')]) {
    const at = `line ${copy.line}`;
    if (copy.cmd === 'ADD') problems.push(`${at}: ADD; copy with COPY`);
    for (const src of copy.sources) {
      const where = sourcePath(parsed, copy, src);
      const fromBuild = where.stage?.name === 'build' || (!copy.flags.from && where.rel !== null);
      if (!fromBuild || where.rel === null || !WEB_SOURCES.some((re) => re.test(where.rel)))
        problems.push(
          `${at}: copies ${src} (${where.origin}); only apps/web/dist and infra/web's files belong here`,
        );
      else if (where.rel === 'apps/web/dist' && posix.normalize(copy.dest) !== env.WEB_ROOT)
        problems.push(`${at}: the app goes to ${copy.dest}, but WEB_ROOT is ${env.WEB_ROOT}`);
      else if (where.rel === 'infra/web/render.sh') {
        if (!/^\/docker-entrypoint\.d\/[\w.-]+\.sh$/.test(copy.dest))
          problems.push(`${at}: render.sh must go to /docker-entrypoint.d/<name>.sh (run by the entrypoint)`);
        if (!/^0?[0-7]?[157][157][157]$|\+x/.test(String(copy.flags.chmod ?? '')))
          problems.push(`${at}: render.sh is copied without --chmod=0755 (the entrypoint skips it)`);
      }
    }
  }
  for (const name of ['WEB_TEMPLATE_DIR', 'WEB_RUNTIME_DIR', 'WEB_ROOT'])
    if (!env[name]) problems.push(`ENV ${name} is not set`);
  const cmd = of('CMD').at(-1)?.args ?? '';
  let argv = [];
  try {
    argv = JSON.parse(cmd);
  } catch {
    problems.push(`CMD ${cmd}: use the exec form ["nginx", "-c", ...]`);
  }
  if (argv[0] !== 'nginx' || argv[argv.indexOf('-c') + 1] !== `${env.WEB_RUNTIME_DIR}/nginx.conf`)
    problems.push(
      `CMD ${cmd}: must start nginx (the entrypoint runs its scripts for nginx only) on ${env.WEB_RUNTIME_DIR}/nginx.conf`,
    );
  const health = of('HEALTHCHECK').at(-1)?.args ?? '';
  if (!health || /^NONE\b/i.test(health)) problems.push('no HEALTHCHECK');
  return problems;
}
