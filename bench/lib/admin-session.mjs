// A console session for the benchmarks that call /api/admin (admin.bench.mjs, load.bench.mjs).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generate } from 'otplib';
import { signUpThroughApi } from './app.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A super admin with 2FA on, signed in to the console: answers the cookie header. */
export async function adminSession(base, databaseUrl) {
  const account = await signUpThroughApi(base, 'vault-bench/admin');
  const auth = { authorization: `Bearer ${account.access}`, 'content-type': 'application/json' };
  const enabled = await fetch(`${base}/api/auth/2fa/enable`, { method: 'POST', headers: auth, body: '{}' });
  if (!enabled.ok) throw new Error(`2fa enable: HTTP ${enabled.status}`);
  const secret = new URL((await enabled.json()).otpauthUrl).searchParams.get('secret');
  const verified = await fetch(`${base}/api/auth/2fa/verify`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ code: await generate({ secret }) }),
  });
  if (!verified.ok) throw new Error(`2fa verify: HTTP ${verified.status}`);
  const promoted = spawnSync(process.execPath, ['apps/auth/dist/cli/promote.js', account.username], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  if (promoted.status !== 0) throw new Error(`promote: ${promoted.stderr || promoted.stdout}`);
  // A TOTP code is single-use per 30 s window: the one that turned 2FA on cannot sign in again.
  await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 500));
  const res = await fetch(`${base}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      identifier: account.username,
      authKey: account.authKey,
      totpCode: await generate({ secret }),
    }),
  });
  if (res.status !== 200) throw new Error(`admin sign-in: HTTP ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie.startsWith('vault_admin=')) throw new Error('admin sign-in set no vault_admin cookie');
  return cookie;
}
