// The named checks of a tier script (web-tier-e2e.mjs, backup-e2e.mjs): each is logged with its
// time as it ends, and the closing line is the `<label>: N passed, N failed` scripts/test.mjs reads.
import { log } from './util.mjs';

export function tierChecks(label) {
  const started = Date.now();
  const results = [];
  return {
    /** Runs `fn`; a throw fails the check (its message is printed), and the next one still runs. */
    async check(name, fn) {
      const t0 = Date.now();
      try {
        await fn();
        results.push(true);
        console.log(`  ✓ ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (error) {
        results.push(false);
        const text = String(error instanceof Error ? error.message : error).replace(/\n/g, '\n    ');
        console.log(`  ✗ ${name}\n    ${text}`);
      }
    },
    /** The closing line and the exit code; a service that crashed during the run fails it too. */
    finish({ crashed, logDir } = {}) {
      if (crashed) {
        log(`a service crashed during the run: ${crashed}${logDir ? ` (logs: ${logDir})` : ''}`);
        results.push(false);
      }
      const failed = results.filter((ok) => !ok).length;
      console.log(`${label}: ${results.length - failed} passed, ${failed} failed`);
      log(`${label} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return failed === 0 ? 0 : 1;
    },
  };
}
