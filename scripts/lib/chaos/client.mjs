// The chaos tier's client (scripts/chaos-e2e.mjs): what a browser does through the gateway, with the
// real client side of the protocol (@vault/crypto): accounts, sign-ins, an admin console session
// and small encrypted files on the local disk store.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_COOKIE, FILE_CHUNK_SIZE, expectedEncryptedSize } from '@vault/contracts';
import { bytesToHex, createAccount, encryptFileBytes, encryptFileMetadata, newItemId } from '@vault/crypto';
import Redis from 'ioredis';
import { generate } from 'otplib';
import { ROOT } from '../util.mjs';

/** The protocol's floor parameters: the cheapest the server accepts (apps/e2e/support FAST_KDF). */
export const FAST_KDF = { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 };

const REQUEST_TIMEOUT_MS = 20_000;

/**
 * One HTTP call: `{status, body, ms}`; status 0 is a connection error (nothing answered). Every
 * request carries the account's own client address (the gateway runs with TRUST_PROXY), so that
 * each account has rate-limit windows of its own.
 */
export async function call(baseUrl, method, path, { body, token, ip, cookie, headers = {} } = {}) {
  const t0 = Date.now();
  try {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(ip ? { 'x-forwarded-for': ip } : {}),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: globalThis.AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let json;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json, text, headers: res.headers, ms: Date.now() - t0 };
  } catch (error) {
    return { status: 0, error: error?.cause?.code ?? error?.name ?? String(error), ms: Date.now() - t0 };
  }
}

let sequence = 0;

/** A new account signed up through the gateway (201), with what a device keeps: its keys. */
export async function signUpAccount(baseUrl, prefix = 'chaos') {
  sequence += 1;
  const id = `${prefix}_${randomBytes(4).toString('hex')}_${sequence}`;
  const digits = (n) => Array.from(randomBytes(n), (b) => String(b % 10)).join('');
  const password = `Pw-${randomBytes(6).toString('hex')}-Aa1`;
  const keys = await createAccount(password, { kdfParams: FAST_KDF });
  const ip = `10.${77 + (sequence >> 8)}.${sequence & 255}.${1 + (randomBytes(1)[0] % 250)}`;
  const res = await call(baseUrl, 'POST', '/api/auth/signup', {
    ip,
    body: {
      username: id,
      email: `${id}@example.com`,
      phoneNumber: `+1 (555) ${digits(3)}-${digits(4)} ${digits(5)}`,
      authKey: keys.authKey,
      salt: keys.salt,
      kdfParams: keys.kdfParams,
      wrappedVaultKey: keys.wrappedVaultKey,
    },
  });
  if (res.status !== 201) throw new Error(`sign-up: ${res.status} ${res.text ?? res.error}`);
  return { username: id, password, keys, ip, userId: res.body.user.id, token: res.body.access };
}

/** POST /api/auth/login with the account's authKey; on 200 the account holds the new token. */
export async function signIn(baseUrl, account) {
  const res = await call(baseUrl, 'POST', '/api/auth/login', {
    ip: account.ip,
    body: { identifier: account.username, authKey: account.keys.authKey },
  });
  if (res.status === 200) account.token = res.body.access;
  return res;
}

/** Turns 2FA on (enable + verify with a code of the secret), as the settings screen does. */
async function enableTwoFactor(baseUrl, account) {
  const enable = await call(baseUrl, 'POST', '/api/auth/2fa/enable', {
    token: account.token,
    ip: account.ip,
    body: {},
  });
  if (enable.status !== 200) throw new Error(`2fa enable: ${enable.status} ${enable.text ?? enable.error}`);
  account.totpSecret = new URL(enable.body.otpauthUrl).searchParams.get('secret');
  const code = await generate({ secret: account.totpSecret });
  const verify = await call(baseUrl, 'POST', '/api/auth/2fa/verify', {
    token: account.token,
    ip: account.ip,
    body: { code },
  });
  if (verify.status !== 200) throw new Error(`2fa verify: ${verify.status} ${verify.text ?? verify.error}`);
}

/**
 * A code's time step is accepted once (`totp-used:*` in Redis); a second console sign-in in the
 * same half minute needs those marks gone (apps/e2e/support/admin.ts does the same).
 */
async function forgetSpentSteps(env, userId) {
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => {});
  try {
    const keys = await redis.keys(`${env.REDIS_PREFIX}totp-used:${userId}:*`);
    if (keys.length) await redis.del(...keys);
  } catch {
    // Redis is down: the sign-in that follows answers for itself.
  } finally {
    redis.disconnect();
  }
}

/** A super admin: signed up, 2FA on, promoted with auth's own command (apps/auth README "The first admin"). */
export async function createAdmin(baseUrl, env) {
  const account = await signUpAccount(baseUrl, 'chaos_admin');
  await enableTwoFactor(baseUrl, account);
  await promisify(execFile)(
    process.execPath,
    [join(ROOT, 'apps', 'auth', 'dist', 'cli', 'promote.js'), '--role', 'super_admin', account.username],
    { env: { ...process.env, DATABASE_URL: env.DATABASE_URL }, timeout: 30_000 },
  );
  return account;
}

/** POST /api/admin/session (key + TOTP code): the answer; on 200 `admin.cookie` is the console's cookie. */
export async function adminSignIn(baseUrl, env, admin) {
  await forgetSpentSteps(env, admin.userId);
  const res = await call(baseUrl, 'POST', '/api/admin/session', {
    ip: admin.ip,
    body: {
      identifier: admin.username,
      authKey: admin.keys.authKey,
      totpCode: await generate({ secret: admin.totpSecret }),
    },
  });
  const cookie = res.headers
    ?.getSetCookie()
    .map((line) => line.split(';')[0])
    .find((pair) => pair.startsWith(`${ADMIN_COOKIE.name}=`));
  if (res.status === 200 && cookie) admin.cookie = cookie;
  return res;
}

/**
 * upload-url → PUT of the ciphertext to the signed blob URL → upload-complete, on the local disk
 * store: the file as the API answers it (its scan queued).
 */
export async function uploadFile(baseUrl, account, bytes = randomBytes(2048)) {
  const fileId = newItemId();
  const sealed = await encryptFileMetadata(account.keys.vaultKey, fileId, {
    name: `chaos-${fileId.slice(0, 8)}.bin`,
    mimeType: 'application/octet-stream',
    tags: [],
  });
  const iv = randomBytes(12);
  const ciphertext = await encryptFileBytes(
    { fileKey: sealed.fileKey, fileId, iv, chunkSize: FILE_CHUNK_SIZE },
    bytes,
  );
  const opts = { token: account.token, ip: account.ip };
  const started = await call(baseUrl, 'POST', '/api/files/upload-url', {
    ...opts,
    body: {
      fileId,
      size: bytes.length,
      encryptedSize: expectedEncryptedSize(bytes.length, FILE_CHUNK_SIZE),
      chunkSize: FILE_CHUNK_SIZE,
      iv: bytesToHex(iv),
      wrappedKey: sealed.wrappedKey,
      encryptedName: sealed.encryptedName,
      encryptedMimeType: sealed.encryptedMimeType,
      encryptedTags: sealed.encryptedTags,
      storageType: 'local',
    },
  });
  if (started.status !== 201)
    throw new Error(`upload-url: ${started.status} ${started.text ?? started.error}`);
  const put = await fetch(new URL(started.body.uploadUrl, baseUrl), {
    method: 'PUT',
    body: ciphertext,
    headers: { 'content-type': 'application/octet-stream', 'x-forwarded-for': account.ip },
  });
  if (put.status >= 300) throw new Error(`PUT: ${put.status} ${await put.text()}`);
  const done = await call(baseUrl, 'POST', '/api/files/upload-complete', { ...opts, body: { fileId } });
  if (done.status !== 200) throw new Error(`upload-complete: ${done.status} ${done.text ?? done.error}`);
  return done.body.file;
}

/** The account's files by id, as GET /api/files lists them. */
export async function listFiles(baseUrl, account) {
  const res = await call(baseUrl, 'GET', '/api/files', { token: account.token, ip: account.ip });
  if (res.status === 401) await signIn(baseUrl, account);
  const again =
    res.status === 401
      ? await call(baseUrl, 'GET', '/api/files', { token: account.token, ip: account.ip })
      : res;
  if (again.status !== 200) throw new Error(`GET /api/files: ${again.status} ${again.text ?? again.error}`);
  return new Map(again.body.files.map((f) => [f.id, f]));
}
