import 'reflect-metadata';
import { connectDatabase, describeEndpoint, loadDatabaseConfig } from '@vault/server-kit';
import { authDatabaseConfig } from '../repositories/connections';
import { toIdentifierLookup } from '../services/identifier';
import { describeRoleChange, parsePromoteArgs, PROMOTE_USAGE, setAccountRole } from './account-role';

/**
 * `node apps/auth/dist/cli/promote.js [--role admin --permissions p1,p2 | --demote] <username|email>`
 * (`npm run admin -- promote <username|email>` locally; the same path in the compose and
 * Kubernetes images). Only the database settings are read, as by `migrate.js`: no keys or
 * secrets are needed. Exit codes: 0 changed, already so, or --help; 1 no such account or a failure,
 * 2 usage. See apps/auth/README.md "The first admin".
 */
async function main(argv: readonly string[]): Promise<number> {
  const args = parsePromoteArgs(argv);
  if (!args.ok && args.help) {
    console.log(PROMOTE_USAGE);
    return 0;
  }
  if (!args.ok) {
    if (args.error) console.error(`promote: ${args.error}`);
    console.error(PROMOTE_USAGE);
    return 2;
  }
  if (toIdentifierLookup(args.identifier).kind === 'phone') {
    // Refused before any connection: no database is needed to say so.
    console.error(describeRoleChange(args.identifier, { outcome: 'phone_refused' }).line);
    return 2;
  }
  const cfg = authDatabaseConfig({ ...loadDatabaseConfig(), poolSize: 1 });
  const dataSource = await connectDatabase(cfg);
  try {
    const { line, exitCode } = describeRoleChange(
      args.identifier,
      await setAccountRole(dataSource, args.identifier, args.target),
    );
    (exitCode === 0 ? console.log : console.error)(line);
    return exitCode;
  } catch (error) {
    throw new Error(
      `on ${describeEndpoint(cfg.url)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await dataSource.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`promote failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
