// @vitest-environment node
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUITE_IDS } from './model/suite';
import { SUITES } from './suites';

/** Every failed check links to its anchor in docs/testing-dashboard.md: the anchor must be there. */
const docs = readFileSync(
  fileURLToPath(new URL('../../../../../docs/testing-dashboard.md', import.meta.url)),
  'utf8',
);
const anchors = new Set([...docs.matchAll(/^#{2,4} `([a-z0-9-]+)`$/gm)].map((m) => m[1]));

describe('the dashboard documentation', () => {
  it('has the five suites in the spec order, each check with a unique id', () => {
    expect(SUITES.map((s) => s.id)).toEqual([...SUITE_IDS]);
    const ids = SUITES.flatMap((s) => s.checks.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has a section for every check’s docs anchor, and why/fix text on every check', () => {
    const missing = SUITES.flatMap((s) =>
      s.checks.filter((c) => !anchors.has(c.docs)).map((c) => `${c.id} → #${c.docs}`),
    );
    expect(missing).toEqual([]);
    const unexplained = SUITES.flatMap((s) =>
      s.checks.filter((c) => !c.why.trim() || !c.fix.trim()).map((c) => c.id),
    );
    expect(unexplained).toEqual([]);
  });
});
