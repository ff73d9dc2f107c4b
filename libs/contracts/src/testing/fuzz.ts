/**
 * The one place every fuzzer (`*.fuzz.spec.ts`, `*.fuzz.test.ts`, apps/e2e/api/fuzz-routes) takes
 * its settings from (docs/fuzzing.md): a fixed seed, so `npm test` is the same run every time, and
 * a run count per fuzzer small enough for the tiers, both overridable for a longer run on demand:
 *
 *   FUZZ_SEED=<integer>  another seed (a failure prints the one to replay)
 *   FUZZ_RUNS=20x        every fuzzer's own count times 20 (`npm run test:fuzz`)
 *   FUZZ_RUNS=500        every fuzzer 500 runs
 *   FUZZ_PATH=<path>     replays one failure's shrunk case (with its seed, and `-t` naming the test)
 *
 * Test support only: not built into the library (libs/contracts/tsconfig.json leaves it out) and
 * imported as `@vault/contracts/testing` by Jest (unit, e2e) and Vitest (apps/web) alike.
 */
import fc from 'fast-check';

/** The default seed: the date issue 17 asked for fuzzing, fixed so that every run is the same. */
export const FUZZ_DEFAULT_SEED = 20261126;

/** Read here rather than from `process.env` typed: this module also compiles for the browser app. */
function env(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[
    name
  ];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function invalid(name: string, value: string, expected: string): Error {
  return new Error(`${name}=${value} is not ${expected}`);
}

/** FUZZ_SEED, else the default seed. */
export function fuzzSeed(): number {
  const raw = env('FUZZ_SEED');
  if (raw === undefined) return FUZZ_DEFAULT_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw invalid('FUZZ_SEED', raw, 'an integer');
  return seed | 0;
}

/** How many runs a fuzzer whose own count is `defaultRuns` makes: FUZZ_RUNS as `<n>x` multiplies it, `<n>` replaces it. */
export function fuzzRuns(defaultRuns: number): number {
  const raw = env('FUZZ_RUNS');
  if (raw === undefined) return defaultRuns;
  const factor = /^(\d+(?:\.\d+)?)x$/i.exec(raw);
  if (factor) {
    const times = Number(factor[1]);
    if (!(times > 0)) throw invalid('FUZZ_RUNS', raw, 'a positive factor such as 20x');
    return Math.max(1, Math.round(defaultRuns * times));
  }
  const runs = Number(raw);
  if (!Number.isSafeInteger(runs) || runs < 1)
    throw invalid('FUZZ_RUNS', raw, 'a count (500) or a factor (20x)');
  return runs;
}

export interface FuzzSettings {
  seed: number;
  numRuns: number;
  /** The replayed case (FUZZ_PATH), if any. */
  path: string | undefined;
  /**
   * A per-test timeout that grows with the run count: `baseMs` at the fuzzer's own count, in
   * proportion above it (a run of `npm run test:fuzz` is 20 times as long).
   */
  timeoutMs: number;
  /** The test's title with its run count and seed, so every run shows what it did. */
  title(text: string): string;
}

/** The settings of one fuzzer whose own run count (in `npm test`) is `defaultRuns`. */
export function fuzzSettings(defaultRuns: number, baseTimeoutMs = 30_000): FuzzSettings {
  const seed = fuzzSeed();
  const numRuns = fuzzRuns(defaultRuns);
  return {
    seed,
    numRuns,
    path: env('FUZZ_PATH'),
    timeoutMs: Math.ceil(baseTimeoutMs * Math.max(1, numRuns / defaultRuns)),
    title: (text) => `${text} [fuzz: ${numRuns} runs, seed ${seed}]`,
  };
}

/** The fast-check parameters of these settings, plus any of the fuzzer's own. */
export function fuzzParameters<T>(settings: FuzzSettings, extra: fc.Parameters<T> = {}): fc.Parameters<T> {
  return {
    // The failing run's own error in the report, not only its input.
    includeErrorInReport: true,
    ...extra,
    seed: settings.seed,
    numRuns: settings.numRuns,
    ...(settings.path !== undefined ? { path: settings.path } : {}),
  };
}

/** The line a failure ends with: how to replay exactly the shrunk case. */
export function replayHint(seed: number, path: string | undefined): string {
  return (
    `Replay: FUZZ_SEED=${seed}${path ? ` FUZZ_PATH=${path}` : ''} ` +
    '(with the same FUZZ_RUNS, and -t "<this test>" for Jest or Vitest; see docs/fuzzing.md)'
  );
}

/**
 * Runs a property (sync or async) with the fuzzer's settings and throws on a failure: fast-check's
 * report (seed, path, the shrunk counterexample and its error) followed by the replay line.
 */
export async function fuzz<Ts>(
  property: fc.IProperty<Ts> | fc.IAsyncProperty<Ts>,
  settings: FuzzSettings,
  extra: fc.Parameters<Ts> = {},
): Promise<void> {
  let details: fc.RunDetails<Ts>;
  try {
    details = await fc.check(property as fc.IAsyncProperty<Ts>, fuzzParameters(settings, extra));
  } catch (error) {
    // An arbitrary that threw (while generating or shrinking): still say how to get back here.
    throw new Error(`fast-check stopped: ${String(error)}\n\n${replayHint(settings.seed, settings.path)}`, {
      cause: error,
    });
  }
  if (!details.failed && !details.interrupted) return;
  const report = (await fc.asyncDefaultReportMessage(details)) ?? 'Property failed';
  const error = new Error(
    `${report}\n\n${replayHint(details.seed, details.counterexamplePath ?? undefined)}`,
  );
  if (details.errorInstance !== null && details.errorInstance !== undefined) {
    (error as Error & { cause?: unknown }).cause = details.errorInstance;
  }
  throw error;
}

/** Strings parsers meet in the wild: any code unit (lone surrogates too), controls, names that collide with Object's. */
export function hostileString(maxLength = 200): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 2, arbitrary: fc.string({ maxLength }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '\u0000',
        '\ud800',
        '%',
        '%zz',
        '%00',
        '__proto__',
        'constructor',
        'toString',
        'null',
        'undefined',
        'NaN',
        '-0',
        '1e309',
        '9007199254740993',
        '../../etc/passwd',
        '\r\n',
        '"',
        "'",
        '\\',
      ),
    },
  );
}

/**
 * Near-valid variants of `valid`, what a buggy client, a truncated copy or a tamperer makes: one
 * character replaced, inserted or removed, cut short, a piece doubled, the case changed, padded
 * with white space, or several such changes at once. May, rarely, give `valid` back unchanged.
 */
export function mutationOf(valid: string): fc.Arbitrary<string> {
  const at = fc.nat({ max: Math.max(0, valid.length) });
  const char = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.constantFrom(':', '.', '-', '_', '=', '/', '+', ' ', '0', 'f', 'F', 'g', '\u0000'),
  );
  const one = (text: string): fc.Arbitrary<string> =>
    fc.oneof(
      fc.tuple(at, char).map(([i, c]) => text.slice(0, i) + c + text.slice(i + 1)),
      fc.tuple(at, char).map(([i, c]) => text.slice(0, i) + c + text.slice(i)),
      at.map((i) => text.slice(0, i) + text.slice(i + 1)),
      at.map((i) => text.slice(0, i)),
      at.map((i) => text.slice(i)),
      fc.tuple(at, at).map(([i, j]) => text.slice(0, Math.max(i, j)) + text.slice(Math.min(i, j))),
      fc.constant(text.toUpperCase()),
      fc.constantFrom(
        ` ${text}`,
        `${text} `,
        `${text}\n`,
        `${text}${text}`,
        text.split('').reverse().join(''),
      ),
    );
  return fc.oneof(
    { weight: 4, arbitrary: one(valid) },
    { weight: 1, arbitrary: one(valid).chain((once) => one(once)) },
  );
}
