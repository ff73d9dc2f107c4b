import type { Type } from '@nestjs/common';
import { AboutController } from './about/about.controller';
import { AdminSecurityController } from './admin/admin-security.controller';
import { AdminSessionController } from './admin/admin-session.controller';
import { AdminSystemController } from './admin/admin-system.controller';
import { AdminTestRunnerController } from './admin/admin-test-runner.controller';
import { AdminUsersController } from './admin/admin-users.controller';
import { AccountController } from './auth/account.controller';
import { AuthController } from './auth/auth.controller';
import { RecoveryController } from './auth/recovery.controller';
import { TwoFactorController } from './auth/two-factor.controller';
import { FilesBlobController } from './files/files-blob.controller';
import { FilesController } from './files/files.controller';
import { HealthController } from './health/health.controller';
import { NotesController } from './notes/notes.controller';

/** Every route is mounted under /api (Nest's global prefix). */
export const API_PREFIX = 'api';

/**
 * Every controller of the gateway, in the order Nest registers them: the app module maps these,
 * and the OpenAPI document is built from their metadata (openapi/openapi.document.ts).
 */
export const GATEWAY_CONTROLLERS: Type[] = [
  AuthController,
  TwoFactorController,
  AccountController,
  RecoveryController,
  NotesController,
  FilesController,
  FilesBlobController,
  HealthController,
  AboutController,
  AdminSessionController,
  AdminUsersController,
  AdminSecurityController,
  AdminSystemController,
  AdminTestRunnerController,
];
