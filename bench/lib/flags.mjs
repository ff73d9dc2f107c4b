/**
 * `--name value` / `--name=value` command-line flags of the benchmarks. `names` maps each flag
 * to [option key, parse]; `opts` holds the defaults and receives the parsed values. Unknown
 * flags, a missing value and a number that does not parse (NaN, negative) are errors.
 */
export function parseFlags(argv, opts, names) {
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const spec = names[flag];
    if (!spec) throw new Error(`unknown option ${flag}`);
    const raw = inline ?? argv[++i];
    if (raw === undefined) throw new Error(`${flag} needs a value`);
    const value = spec[1](raw);
    if (typeof value === 'number' && !(value >= 0)) throw new Error(`${flag}: not a number: ${raw}`);
    opts[spec[0]] = value;
  }
  opts.base = typeof opts.base === 'string' ? opts.base.replace(/\/+$/, '') : opts.base;
  return opts;
}
