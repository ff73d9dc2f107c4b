/**
 * crypto-vectors-v1.json, every entry, byte for byte, in Node. The same checks run in Chromium through
 * test/browser/run-vectors.mjs (vectors/vector-checks.ts is shared).
 */
import { buildRefusalChecks, buildVectorChecks, vectors } from '../vectors/vector-checks';

describe('crypto-vectors-v1.json', () => {
  it('is version 1 and has every section', () => {
    expect(vectors.version).toBe(1);
    expect(vectors.account).toHaveLength(2);
    expect(vectors.fileContent.length).toBeGreaterThanOrEqual(5);
  });

  for (const check of buildVectorChecks()) {
    it(check.name, () => check.run(), check.slow ? 60_000 : 15_000);
  }
});

describe('browser refusal checks (also run in Node)', () => {
  for (const check of buildRefusalChecks()) {
    it(check.name, () => check.run(), 15_000);
  }
});
