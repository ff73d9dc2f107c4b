/** What other tooling may import from the admin service (scripts, docs generators). */
export { AppModule } from './app.module';
export { startAdminService } from './bootstrap';
export { loadAdminConfig, adminEnvSchema, type AdminConfig, type AdminEnv } from './config/admin.config';
export { ADMIN_MIGRATIONS } from './migrations';
export { verifyAuditChain, type AuditVerification } from './audit/verify-chain';
