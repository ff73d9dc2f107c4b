import { verifyAuditCommand, VERIFY_EXIT } from '../audit/verify-audit-command';
import { commandEnv } from '../config/admin.config';

// `node apps/admin/dist/cli/verify-audit.js` (`npm run admin -- verify-audit`): see verifyAuditCommand.
verifyAuditCommand(commandEnv(), { out: console.log, err: console.error }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`[admin] verify-audit failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = VERIFY_EXIT.cannotCheck;
  },
);
