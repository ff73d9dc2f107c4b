// What the offline deployment checks (validate.mjs, validate-k8s.mjs) share: the repository's root
// and their pass/fail reporting, whose closing line scripts/test.mjs reads.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

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
