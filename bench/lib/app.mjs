// What the browser benchmarks (vault.bench.mjs, files.bench.mjs) share: the built client crypto, an
// account made through the API with it, and the sign-in through the app's own screen.
import { randomBytes } from 'node:crypto';

/**
 * @vault/crypto as BUILT (libs/crypto/dist): what the app ships is what is timed. Exits with how to
 * build it when it is not there.
 */
export async function loadVaultCrypto() {
  try {
    return await import('@vault/crypto');
  } catch (e) {
    console.error(
      `Cannot load @vault/crypto (${e?.code ?? e}). Build it first: npx tsc -b libs/crypto/tsconfig.json`,
    );
    process.exit(1);
  }
}

/**
 * A new account through `POST /api/auth/signup` (sent as `userAgent`), with the real client side of
 * the protocol and the default (real) KDF, so that an unlock times the real KDF. Returns the
 * credentials (authKey included), the vault key and the access token.
 */
export async function signUpThroughApi(base, userAgent) {
  const { DEFAULT_KDF_PARAMS, createAccount } = await loadVaultCrypto();
  const id = `bench_${randomBytes(5).toString('hex')}`;
  const password = `Bench-${randomBytes(6).toString('hex')}-Aa1`;
  const digits = () => String(Math.floor(Math.random() * 10));
  const phone = `+1 (555) ${Array.from({ length: 3 }, digits).join('')}-${Array.from({ length: 4 }, digits).join('')} ${Array.from({ length: 5 }, digits).join('')}`;
  const keys = await createAccount(password, { kdfParams: DEFAULT_KDF_PARAMS });
  const res = await fetch(`${base}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({
      username: id,
      email: `${id}@example.com`,
      phoneNumber: phone,
      authKey: keys.authKey,
      salt: keys.salt,
      kdfParams: keys.kdfParams,
      wrappedVaultKey: keys.wrappedVaultKey,
    }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`sign-up: HTTP ${res.status} ${text.slice(0, 300)}`);
  const { access } = JSON.parse(text);
  return {
    username: id,
    email: `${id}@example.com`,
    password,
    authKey: keys.authKey,
    vaultKey: keys.vaultKey,
    access,
  };
}

/** Signs `account` in through the app's /login screen, up to the vault. */
export async function signInThroughUi(page, base, account) {
  await page.goto(`${base}/login`);
  await page.getByLabel('Username, email or phone').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 60_000 });
}
