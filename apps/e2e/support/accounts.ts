/**
 * Account factory: unique identities per test run, and the real client side of the crypto protocol
 * (`@vault/crypto`): the password never leaves the test, only the derived authKey and the wrapped vault key.
 */
import { randomBytes } from 'node:crypto';
import type { AuthResponse, PreloginResponse, UserDto } from '@vault/contracts';
import { createAccount, deriveAuthKey, type CreatedAccount, type KdfParams } from '@vault/crypto';
import { ApiClient, assertStatus, type ApiResponse } from './http';

/** The protocol's floor parameters: the cheapest the server accepts, for fast tests. */
export const FAST_KDF: KdfParams = { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 };

/** One id per test process, so that runs against a reused database never collide. */
const RUN_ID = `${Date.now().toString(36).slice(-5)}${randomBytes(3).toString('hex')}`;
let sequence = 0;

/** A unique lowercase token: `<prefix><run><n>`, valid as a username (letters, digits, `_`). */
export function uniqueId(prefix = 'e2e'): string {
  sequence += 1;
  return `${prefix}_${RUN_ID}_${sequence}`.toLowerCase();
}

export function randomDigits(count: number): string {
  let digits = '';
  for (const byte of randomBytes(count)) digits += String(byte % 10);
  return digits;
}

export interface Identity {
  username: string;
  email: string;
  phoneNumber: string;
  password: string;
}

/** A fresh identity whose password passes the sign-up screen's rules (8+, lower, upper, digit). */
export function newIdentity(prefix = 'e2e'): Identity {
  const id = uniqueId(prefix);
  return {
    username: id,
    email: `${id}@example.com`,
    // Phone numbers are unique per account: 12 random digits keep a run's accounts apart.
    phoneNumber: `+1 (555) ${randomDigits(3)}-${randomDigits(4)} ${randomDigits(5)}`,
    password: `Pw-${randomBytes(6).toString('hex')}-Aa1`,
  };
}

export interface SignupBody {
  username: string;
  email: string;
  phoneNumber: string;
  authKey: string;
  salt: string;
  kdfParams: KdfParams;
  wrappedVaultKey: string;
}

export interface PreparedAccount {
  identity: Identity;
  /** What createAccount made on the "device": salt, kdfParams, authKey, wrappedVaultKey, vaultKey. */
  keys: CreatedAccount;
  body: SignupBody;
}

/** Runs the client side of sign-up without sending anything. */
export async function prepareAccount(
  identity: Identity = newIdentity(),
  kdfParams: KdfParams = FAST_KDF,
): Promise<PreparedAccount> {
  const keys = await createAccount(identity.password, { kdfParams });
  const body: SignupBody = {
    username: identity.username,
    email: identity.email,
    phoneNumber: identity.phoneNumber,
    authKey: keys.authKey,
    salt: keys.salt,
    kdfParams: keys.kdfParams,
    wrappedVaultKey: keys.wrappedVaultKey,
  };
  return { identity, keys, body };
}

export interface TestAccount extends PreparedAccount {
  user: UserDto;
  /** The browser that signed up: it holds the access token and the refresh cookie. */
  client: ApiClient;
  signup: ApiResponse<AuthResponse>;
}

export interface SignUpOptions {
  client?: ApiClient;
  identity?: Identity;
  kdfParams?: KdfParams;
}

/** Signs a new account up through the gateway; throws (with the answer) unless it gets 201. */
export async function signUp(opts: SignUpOptions = {}): Promise<TestAccount> {
  const prepared = await prepareAccount(opts.identity ?? newIdentity(), opts.kdfParams ?? FAST_KDF);
  const client = opts.client ?? new ApiClient(prepared.identity.username);
  const signup = assertStatus(
    await client.post<AuthResponse>('/api/auth/signup', prepared.body, { token: null }),
    201,
    'sign-up',
  );
  client.access = signup.body.access;
  return { ...prepared, user: signup.body.user, client, signup };
}

/** POST /api/auth/login with an authKey; on 200 the client keeps the access token (and the cookie). */
export async function login(
  client: ApiClient,
  identifier: string,
  authKey: string,
): Promise<ApiResponse<AuthResponse>> {
  const res = await client.post<AuthResponse>('/api/auth/login', { identifier, authKey }, { token: null });
  if (res.status === 200 && typeof res.body?.access === 'string') client.access = res.body.access;
  return res;
}

/** What a real client does: prelogin, derive the authKey from the password, login. */
export async function signIn(
  client: ApiClient,
  identifier: string,
  password: string,
): Promise<ApiResponse<AuthResponse> & { prelogin: PreloginResponse; authKey: string }> {
  const pre = assertStatus(
    await client.post<PreloginResponse>('/api/auth/prelogin', { identifier }, { token: null }),
    200,
    'prelogin',
  );
  const authKey = await deriveAuthKey(password, pre.body.salt, pre.body.kdfParams);
  const res = await login(client, identifier, authKey);
  return Object.assign(res, { prelogin: pre.body, authKey });
}

/** A second browser (own cookie jar, own session) signed in to an existing account. */
export async function openBrowser(account: PreparedAccount, name: string): Promise<ApiClient> {
  const client = new ApiClient(`${account.identity.username}-${name}`);
  assertStatus(
    await login(client, account.identity.username, account.keys.authKey),
    200,
    `sign-in (${name})`,
  );
  return client;
}
