// What the app's /admin routes load, in one chunk apart from the vault's bundle (app/routes/admin.tsx).
export { AdminRoot } from './admin-root';
export { AdminLoginPage } from './login/admin-login-page';
export { AdminConsole } from './shell/admin-console';
