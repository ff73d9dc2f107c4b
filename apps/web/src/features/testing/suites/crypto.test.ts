// @vitest-environment node
import { vectors } from '@vault/crypto/vectors';
import { afterEach, describe, expect, it } from 'vitest';
import { cryptoSelfTestOps } from '../../../workers/crypto-self-test';
import type { CryptoSelfTestService } from '../../../workers/crypto-self-test-service';
import type { CheckContext } from '../model/suite';
import { runSuite } from '../runner/run-suite';
import type { CryptoService } from '../../../workers/crypto-service';
import { FakeVaultServer, fakeTestingContext } from '../testing/fake-vault-server';
import { cryptoSuite } from './crypto';

const original = structuredClone(vectors.note);
afterEach(() => Object.assign(vectors.note, structuredClone(original)));

const run = (crypto: object, quick: boolean, signal = new AbortController().signal) =>
  runSuite(
    cryptoSuite,
    (base: CheckContext) =>
      fakeTestingContext(new FakeVaultServer(), { ...base, crypto: crypto as CryptoService }),
    {
      quick,
      signal,
    },
  );

describe('the Crypto suite', () => {
  it('passes on this runtime with the real @vault/crypto (Quick Test), every check measured', async () => {
    const result = await run(cryptoSelfTestOps, true);
    expect(result.checks.map((c) => [c.id, c.status])).toEqual(
      cryptoSuite.checks.map((c) => [c.id, 'passed']),
    );
    expect(result.status).toBe('passed');
    for (const check of result.checks) expect(check.metrics?.['cases']).toBeGreaterThan(0);
    expect(result.output.some((line) => line.includes('ok   account[pbkdf2-sha256] passwordKey'))).toBe(true);
  });

  it('fails when a planted wrong vector is bundled, saying which case, why and what to do', async () => {
    vectors.note.plaintext.title = 'A planted wrong title';
    const result = await run(cryptoSelfTestOps, true);
    expect(result.status).toBe('failed');
    const failedChecks = result.checks.filter((c) => c.status === 'failed');
    // The refusal checks open the same note vector's title as their control: they see it too.
    expect(failedChecks.map((c) => c.id)).toEqual([
      'crypto-vectors',
      'crypto-flipped-tag',
      'crypto-wrong-aad',
    ]);
    const vectorsCheck = failedChecks[0];
    // Every case that reads the note vector fails, the first one named with what differed.
    expect(vectorsCheck?.detail).toMatch(/^4 of \d+ failed; first: .+: expected .*A planted wrong title/);
    expect(vectorsCheck?.why).toContain('Every Vault client');
    expect(vectorsCheck?.fix).toContain('Reload the page');
    expect(vectorsCheck?.docs).toBe('crypto-vectors');
    expect(result.errors[0]).toContain('Protocol vectors');
  });

  it('fails, rather than passing, when the crypto service has no self-test', async () => {
    const result = await run({ prepareLogin: () => undefined }, true);
    expect(result.status).toBe('failed');
    expect(result.checks[0]?.detail).toContain('offers no self-test');
  });

  it('Stop aborts the running self-test and starts no further one', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const stopping: CryptoSelfTestService = {
      ...cryptoSelfTestOps,
      runSelfTest: (id, options, signal) => {
        calls.push(id);
        controller.abort();
        return cryptoSelfTestOps.runSelfTest(id, options, signal);
      },
    };
    const result = await run(stopping, false, controller.signal);
    expect(result.status).toBe('cancelled');
    expect(calls).toEqual(['vectors']);
    expect(result.checks.map((c) => c.status)).toEqual(['cancelled']);
  });
});
