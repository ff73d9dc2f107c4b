// How the benchmarks sum up and print what they measured.
import { writeFileSync } from 'node:fs';

/** `n` to `digits` decimals; null when it is not a finite number (JSON has no NaN). */
export const round = (n, digits = 1) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : null);

/** The median of the finite values; NaN when there is none. */
export function median(values) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/** `lines` (arrays of cells) under the `cols` headings, each column right-aligned to its widest cell. */
export function printTable(cols, lines) {
  const widths = cols.map((c, i) => Math.max(c.length, ...lines.map((l) => String(l[i]).length)));
  const fmt = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join('  ');
  console.log(fmt(cols));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));
}

/** The result as JSON: into `jsonPath` (indented) when given, and as the last line of the output. */
export function emitResult(result, jsonPath) {
  if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result));
}

/** Runs the benchmark's `main`; a failure prints its stack and exits 1. */
export function runMain(main) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
