import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * A real clamd for the medium tests, started by scripts/lib/clamd.mjs (the same code local
 * mode uses) in a child process: Jest cannot import an .mjs module without
 * --experimental-vm-modules. The script prints one JSON line once clamd answers PING, and
 * stops clamd when we close its stdin (also if this process dies).
 */
export interface TestClamd {
  host: string;
  port: number;
  stop(): Promise<void>;
}

const SCRIPT = join(__dirname, '..', '..', '..', '..', '..', 'scripts', 'lib', 'clamd.mjs');

export async function startTestClamd(): Promise<TestClamd> {
  const dir = mkdtempSync(join(tmpdir(), 'vault-clamd-'));
  const child: ChildProcess = spawn(process.execPath, [SCRIPT, '--dir', dir, '--watch-stdin'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (data: Buffer) => {
    errors += data.toString('utf8');
  });
  const ready = await new Promise<{ host: string; port: number }>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      try {
        resolve(JSON.parse(line) as { host: string; port: number });
      } catch {
        reject(new Error(`scripts/lib/clamd.mjs printed ${line}`));
      }
    });
    child.once('exit', (code) =>
      reject(
        new Error(
          `Could not start clamd for the scan worker's medium tests (exit ${code}):\n${errors.trim()}\n` +
            'Install ClamAV with: apt-get install -y clamav clamav-daemon (or run scripts/ensure-tools.sh as root).',
        ),
      ),
    );
  });
  return {
    ...ready,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.stdin?.end();
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
