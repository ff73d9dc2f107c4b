import {
  isCryptoSelfTestService,
  type CryptoSelfTestService,
  type SelfTestId,
  type SelfTestReport,
} from '../../../workers/crypto-self-test-service';
import type { TestingContext } from '../model/context';
import type { CheckDefinition, CheckOutcome, SuiteDefinition } from '../model/suite';
import { failed, passed, throwIfAborted } from './check-helpers';

type CryptoCheck = CheckDefinition<TestingContext>;

/** The vault's own crypto Worker, which runs every case (the page holds no crypto code). */
export function selfTestWorker(ctx: TestingContext): CryptoSelfTestService {
  if (!isCryptoSelfTestService(ctx.crypto)) {
    throw new Error('the crypto Worker offers no self-test: reload the page to load the current version');
  }
  return ctx.crypto;
}

/** Failed when any case failed (the first one named), or when nothing ran at all. */
export function selfTestOutcome(report: SelfTestReport): CheckOutcome {
  const broken = report.cases.filter((c) => !c.passed);
  const ms = Math.round(report.cases.reduce((sum, c) => sum + c.ms, 0));
  const metrics = { cases: report.cases.length, failed: broken.length, ms };
  const [first] = broken;
  if (first) {
    return {
      status: 'failed',
      detail: `${broken.length} of ${report.cases.length} failed; first: ${first.name}: ${first.message ?? 'failed'}`,
      metrics,
    };
  }
  if (report.cases.length === 0) return failed('no case ran');
  const left = report.skipped > 0 ? `; ${report.skipped} more in the full run` : '';
  return passed(`${report.cases.length} of ${report.cases.length} passed${left}`, metrics);
}

interface SelfTestCheckSpec {
  test: SelfTestId;
  name: string;
  why: string;
  fix: string;
}

const REINSTALL =
  'Reload the page; if it still fails, this build or this browser computes wrong results: do not use the vault on this device, and report the check with the downloaded report.';

function selfTestCheck(spec: SelfTestCheckSpec): CryptoCheck {
  const id = `crypto-${spec.test}`;
  return {
    id,
    name: spec.name,
    why: spec.why,
    fix: spec.fix,
    docs: id,
    quick: true,
    async run(ctx) {
      throwIfAborted(ctx.signal);
      const report = await selfTestWorker(ctx).runSelfTest(spec.test, { quick: ctx.quick }, ctx.signal);
      for (const c of report.cases) {
        const why = c.passed ? '' : `: ${c.message ?? 'failed'}`;
        ctx.log(`${c.passed ? 'ok  ' : 'FAIL'} ${c.name} (${Math.round(c.ms)} ms)${why}`);
      }
      return selfTestOutcome(report);
    },
  };
}

const CHECKS: SelfTestCheckSpec[] = [
  {
    test: 'vectors',
    name: 'Protocol vectors (crypto-vectors-v1)',
    why: 'Every Vault client must derive, seal and open exactly these bytes; a difference means this device would write data other clients cannot read, or read data wrongly.',
    fix: REINSTALL,
  },
  {
    test: 'aes-gcm',
    name: 'AES-256-GCM known answers',
    why: 'AES-256-GCM seals every note, file and key; the standard’s own answers prove the browser’s implementation.',
    fix: REINSTALL,
  },
  {
    test: 'hkdf',
    name: 'HKDF-SHA256 known answers (RFC 5869)',
    why: 'HKDF turns the password key into the sign-in key and the key that wraps the vault key.',
    fix: REINSTALL,
  },
  {
    test: 'pbkdf2',
    name: 'PBKDF2-HMAC-SHA256 known answers (RFC 7914)',
    why: 'Accounts on PBKDF2 parameters derive their password key with it.',
    fix: REINSTALL,
  },
  {
    test: 'argon2id',
    name: 'Argon2id known answers (reference implementation)',
    why: 'Argon2id turns the password into the password key; a wrong answer locks the user out of the vault.',
    fix: `${REINSTALL} Quick Test runs the 256 KiB vector only; the full run also the 64 MiB one.`,
  },
  {
    test: 'flipped-tag',
    name: 'Refuses an altered authentication tag',
    why: 'The tag is what proves a ciphertext was not changed on the server or on the way; one flipped bit must be refused.',
    fix: REINSTALL,
  },
  {
    test: 'wrong-aad',
    name: 'Refuses a ciphertext under the wrong AAD',
    why: 'The AAD binds each ciphertext to its item and field, so a server cannot swap a title into a content or one note into another.',
    fix: REINSTALL,
  },
  {
    test: 'truncated-stream',
    name: 'Refuses a truncated file stream',
    why: 'A file cut short must not open as a shorter file: the last chunk is marked, and its absence refused.',
    fix: REINSTALL,
  },
  {
    test: 'reordered-chunk',
    name: 'Refuses reordered file chunks',
    why: 'Each chunk is bound to its position; chunks swapped on the server must not open as a scrambled file.',
    fix: REINSTALL,
  },
];

export const cryptoSuite: SuiteDefinition<TestingContext> = {
  id: 'crypto',
  name: 'Crypto',
  description:
    'The published protocol vectors, the standards’ known answers and the refusals of altered data, run in the vault’s own crypto Worker.',
  category: 'unit',
  covers: [
    'crypto-vectors-v1.json: account keys (Argon2id and PBKDF2), notes, file metadata, file streams, recovery key, security answers',
    'AES-256-GCM (McGrew-Viega), HKDF-SHA256 (RFC 5869), PBKDF2-HMAC-SHA256 (RFC 7914), Argon2id (reference vectors)',
    'Refusals: flipped tag, wrong AAD, truncated stream, reordered chunks',
  ],
  checks: CHECKS.map(selfTestCheck),
};
