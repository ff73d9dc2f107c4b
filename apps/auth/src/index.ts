/** What other tooling may import from the auth service (scripts, docs generators). */
export { AppModule } from './app.module';
export { startAuthService } from './bootstrap';
export { authEnvSchema, loadAuthConfig, type AuthConfig, type AuthEnv } from './config/auth.config';
export { AUTH_MIGRATIONS } from './migrations';
