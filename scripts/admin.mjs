#!/usr/bin/env node
// `npm run admin -- <command>`: the operator's admin commands (docs/operations.md "Admin commands").
// Each runs a service's compiled CLI (`npm run build` first) against DATABASE_URL, which is read
// from the environment as `npm run migrate` reads it (default postgres://postgres@127.0.0.1:5432/vault).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/util.mjs';

const COMMANDS = {
  'verify-audit': {
    usage: 'verify-audit',
    about: 'verify the admin audit log hash chain; exit 0 intact, 1 naming the first broken entry',
    cli: 'apps/admin/dist/cli/verify-audit.js',
    args: () => [],
  },
  promote: {
    usage: 'promote <username|email>',
    about: 'make an existing account super_admin (the first admin); --help for --role, --demote',
    cli: 'apps/auth/dist/cli/promote.js',
    // The auth command checks its own options (--role admin --permissions …, --demote, --help).
    args: (rest) => (rest.length >= 1 ? rest : undefined),
  },
};

function help(out = console.log) {
  out('usage: npm run admin -- <command> [arguments]\n');
  for (const c of Object.values(COMMANDS)) out(`  ${c.usage.padEnd(26)} ${c.about}`);
  out('\nDATABASE_URL (and the service settings a command needs) come from the environment.');
}

const [name, ...rest] = process.argv.slice(2);
if (!name || name === '--help' || name === '-h' || name === 'help') {
  help();
  process.exit(name ? 0 : 2);
}
const command = COMMANDS[name];
if (!command) {
  console.error(`unknown command: ${name}\n`);
  help(console.error);
  process.exit(2);
}
const args = command.args(rest);
if (!args) {
  console.error(`usage: npm run admin -- ${command.usage}`);
  process.exit(2);
}
const cli = join(ROOT, command.cli);
if (!existsSync(cli)) {
  console.error(
    `${command.cli} is missing: build first (npm run build), or this version has no "${name}" command yet.`,
  );
  process.exit(2);
}
const res = spawnSync(process.execPath, [cli, ...args], { cwd: ROOT, stdio: 'inherit' });
process.exit(res.status ?? 1);
