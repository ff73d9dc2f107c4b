// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { SUITE_IDS } from '../model/suite';
import { SUITES } from './index';

describe('SUITES', () => {
  it('holds the five suites in the spec’s order, each with a docs anchor, why and fix per check', () => {
    expect(SUITES.map((s) => s.id)).toEqual([...SUITE_IDS]);
    for (const suite of SUITES) {
      expect(suite.checks.length).toBeGreaterThan(0);
      for (const c of suite.checks) expect([c.docs, c.why, c.fix].every((t) => t.length > 0)).toBe(true);
      const ids = suite.checks.map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});
