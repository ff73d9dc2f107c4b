// What the offline deployment checks (validate.mjs, validate-k8s.mjs) share: the repository's root,
// their pass/fail reporting, whose closing line scripts/test.mjs reads, and each service's variables.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Documented variables per service: rows "| `NAME`" of the Configuration table of apps/<svc>/README.md. */
const variableCache = new Map();
export function documentedVariables(service) {
  if (variableCache.has(service)) return variableCache.get(service);
  const file = join(root, 'apps', service, 'README.md');
  const names = new Set();
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    const start = text.search(/^## Configuration\s*$/m);
    if (start >= 0) {
      const rest = text.slice(start + 1);
      const end = rest.search(/^## /m);
      const section = end >= 0 ? rest.slice(0, end) : rest;
      for (const line of section.split('\n')) {
        if (!line.startsWith('| `')) continue;
        const firstCell = line.split('|')[1];
        for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]);
      }
    }
  }
  variableCache.set(service, names);
  return names;
}

/**
 * `check(name, fn)` runs `fn` and prints ✓ or ✗ with the error's message (a throw fails the check);
 * `finish(label)` prints `<label>: N passed, N failed` and exits, non-zero when any check failed.
 */
export function checkRunner() {
  let passed = 0;
  let failed = 0;
  return {
    check(name, fn) {
      try {
        fn();
        passed += 1;
        console.log(`  ✓ ${name}`);
      } catch (error) {
        failed += 1;
        console.log(
          `  ✗ ${name}\n    ${String(error instanceof Error ? error.message : error).replace(/\n/g, '\n    ')}`,
        );
      }
    },
    finish(label) {
      console.log(`${label}: ${passed} passed, ${failed} failed`);
      process.exit(failed ? 1 : 0);
    },
  };
}
