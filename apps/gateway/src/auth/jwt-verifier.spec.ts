import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { ErrorCode, VaultError } from '@vault/contracts';
import { jwtKeyId } from '@vault/server-kit';
import { SignJWT } from 'jose';
import { bearerToken, CLOCK_TOLERANCE_SECONDS, JwtVerifier } from './jwt-verifier';

const ed = generateKeyPairSync('ed25519');
const publicPem = ed.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const other = generateKeyPairSync('ed25519');
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });

const userId = randomUUID();
const sessionId = randomUUID();
const now = () => Math.floor(Date.now() / 1000);

interface Claims {
  sid?: unknown;
  role?: unknown;
  sub?: string;
  aud?: string;
  iss?: string;
  iat?: number;
  exp?: number;
}

function claims(overrides: Claims = {}): Record<string, unknown> {
  return {
    sub: userId,
    sid: sessionId,
    role: 'user',
    aud: 'vault',
    iss: 'vault-auth',
    iat: now(),
    exp: now() + 900,
    ...overrides,
  };
}

function sign(payload: Record<string, unknown>, key = ed.privateKey, alg = 'EdDSA'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function refusal(verifier: JwtVerifier, token: string): Promise<VaultError> {
  try {
    await verifier.verify(token);
  } catch (error) {
    if (error instanceof VaultError) return error;
    throw error;
  }
  throw new Error('expected the token to be refused');
}

describe(JwtVerifier.name, () => {
  let verifier: JwtVerifier;
  beforeAll(async () => {
    verifier = await JwtVerifier.fromPem(publicPem);
  });

  it('accepts a valid EdDSA token and returns the caller for the RpcContext', async () => {
    await expect(verifier.verify(await sign(claims({ role: 'admin' })))).resolves.toEqual({
      userId,
      sessionId,
      role: 'admin',
    });
  });

  it('refuses a token whose signature was tampered with', async () => {
    const token = await sign(claims());
    const [h, p, s] = token.split('.') as [string, string, string];
    const flipped = `${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
    expect((await refusal(verifier, `${h}.${p}.${flipped}`)).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const token = await sign(claims());
    const [h, , s] = token.split('.') as [string, string, string];
    const forged = b64(claims({ role: 'super_admin' }));
    expect((await refusal(verifier, `${h}.${forged}.${s}`)).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`;
    expect((await refusal(verifier, token)).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('refuses an HS256 token signed with the public key bytes as the HMAC secret', async () => {
    const token = await sign(claims(), new TextEncoder().encode(publicPem) as never, 'HS256');
    expect((await refusal(verifier, token)).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('refuses a valid signature of another algorithm (ES256)', async () => {
    const token = await sign(claims(), ec.privateKey, 'ES256');
    expect((await refusal(verifier, token)).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('refuses a token signed by another Ed25519 key', async () => {
    expect((await refusal(verifier, await sign(claims(), other.privateKey))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });

  it('refuses a wrong audience', async () => {
    expect((await refusal(verifier, await sign(claims({ aud: 'other-app' })))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });

  it('refuses a wrong issuer', async () => {
    expect((await refusal(verifier, await sign(claims({ iss: 'someone-else' })))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });

  it('refuses an expired token', async () => {
    const token = await sign(claims({ iat: now() - 1000, exp: now() - 60 }));
    expect((await refusal(verifier, token)).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('refuses a token issued in the future or without exp', async () => {
    expect((await refusal(verifier, await sign(claims({ iat: now() + 600, exp: now() + 1500 })))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
    const { exp: _exp, ...noExp } = claims();
    expect((await refusal(verifier, await sign(noExp))).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('refuses a token without a session id or with an unknown role', async () => {
    const { sid: _sid, ...noSid } = claims();
    expect((await refusal(verifier, await sign(noSid))).code).toBe(ErrorCode.UNAUTHENTICATED);
    expect((await refusal(verifier, await sign(claims({ role: 'root' })))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });

  it('refuses garbage', async () => {
    for (const token of ['', 'abc', 'a.b', 'a.b.c.d', '💥.💥.💥', 'x'.repeat(5000)]) {
      expect((await refusal(verifier, token)).status).toBe(401);
    }
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header, case-insensitively', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc.def.ghi')).toBe('abc.def.ghi');
  });

  it('ignores other schemes and malformed headers', () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(['Bearer a', 'Bearer b'])).toBeUndefined();
  });
});

describe('JwtVerifier while the signing key is rotated', () => {
  const next = generateKeyPairSync('ed25519');
  const nextPem = next.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const withKid = async (key: typeof ed.privateKey, kid: string) =>
    new SignJWT(claims()).setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid }).sign(key);

  it('verifies tokens of the old and the new key by the key each names, and refuses a key it does not hold', async () => {
    const both = await JwtVerifier.fromPems([publicPem, nextPem]);
    const oldKid = await jwtKeyId(ed.publicKey);
    const newKid = await jwtKeyId(next.publicKey);
    await expect(both.verify(await withKid(ed.privateKey, oldKid))).resolves.toMatchObject({ userId });
    await expect(both.verify(await withKid(next.privateKey, newKid))).resolves.toMatchObject({ userId });
    // Signed by the new key but naming the old one: checked with the old key only, so refused.
    expect((await refusal(both, await withKid(next.privateKey, oldKid))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
    const stranger = generateKeyPairSync('ed25519');
    const strangerKid = await jwtKeyId(stranger.publicKey);
    expect((await refusal(both, await withKid(stranger.privateKey, strangerKid))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });

  it('tries every key it holds for a token without a kid (signed before auth named its key)', async () => {
    const both = await JwtVerifier.fromPems([publicPem, nextPem]);
    await expect(both.verify(await sign(claims(), next.privateKey))).resolves.toMatchObject({ userId });
    await expect(both.verify(await sign(claims(), ed.privateKey))).resolves.toMatchObject({ userId });
    expect((await refusal(both, await sign(claims(), other.privateKey))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });

  it('refuses the old key once it is removed', async () => {
    const newOnly = await JwtVerifier.fromPems([nextPem]);
    const oldKid = await jwtKeyId(ed.publicKey);
    expect((await refusal(newOnly, await withKid(ed.privateKey, oldKid))).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
  });
});

describe('JwtVerifier remembers the tokens it verified', () => {
  afterEach(() => jest.useRealTimers());

  it('answers a token it verified from memory, the same caller each time, a copy the caller may change', async () => {
    const cached = await JwtVerifier.fromPem(publicPem);
    const token = await sign(claims());
    const first = await cached.verify(token);
    expect(cached.remembered).toBe(1);
    first.role = 'admin';
    await expect(cached.verify(token)).resolves.toEqual({ userId, sessionId, role: 'user' });
    expect(cached.remembered).toBe(1);
  });

  it('never remembers a refused token, and a token differing from a remembered one in any character is checked in full', async () => {
    const cached = await JwtVerifier.fromPem(publicPem);
    const token = await sign(claims());
    await cached.verify(token);
    const [h, p, s] = token.split('.') as [string, string, string];
    const flipped = `${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
    const forged = `${h}.${b64(claims({ role: 'super_admin' }))}.${s}`;
    for (const bad of [flipped, forged, `${token}A`, token.slice(0, -1)]) {
      expect((await refusal(cached, bad)).code).toBe(ErrorCode.UNAUTHENTICATED);
    }
    expect(cached.remembered).toBe(1);
  });

  it('refuses a remembered token from the moment jose would (exp plus the clock tolerance)', async () => {
    const cached = await JwtVerifier.fromPem(publicPem);
    const exp = now() + 60;
    const token = await sign(claims({ exp }));
    await cached.verify(token);
    jest.useFakeTimers({
      now: (exp + CLOCK_TOLERANCE_SECONDS) * 1000 - 1,
      doNotFake: ['nextTick', 'setImmediate'],
    });
    await expect(cached.verify(token)).resolves.toMatchObject({ userId });
    jest.setSystemTime((exp + CLOCK_TOLERANCE_SECONDS) * 1000);
    expect((await refusal(cached, token)).code).toBe(ErrorCode.UNAUTHENTICATED);
    expect(cached.remembered).toBe(0);
    // A fresh verifier agrees at that moment: the memory never outlives the check.
    expect((await refusal(await JwtVerifier.fromPem(publicPem), token)).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('forgets the expired tokens as new ones come, without waiting for the bound', async () => {
    const cached = await JwtVerifier.fromPem(publicPem);
    const exp = now() + 60;
    const early = await Promise.all([1, 2, 3].map((i) => sign(claims({ exp, iat: now() - i }))));
    for (const token of early) await cached.verify(token);
    expect(cached.remembered).toBe(3);
    jest.useFakeTimers({
      now: (exp + CLOCK_TOLERANCE_SECONDS) * 1000,
      doNotFake: ['nextTick', 'setImmediate'],
    });
    // Signed for the moment the clock now says: a fresh token of a later session.
    await cached.verify(await sign(claims({ iat: now(), exp: now() + 900 })));
    expect(cached.remembered).toBe(1);
  });

  it('keeps at most cacheSize tokens, dropping the oldest first', async () => {
    const small = await JwtVerifier.fromPems([publicPem], { cacheSize: 3 });
    const tokens = await Promise.all(Array.from({ length: 5 }, (_, i) => sign(claims({ iat: now() - i }))));
    for (const token of tokens) await small.verify(token);
    expect(small.remembered).toBe(3);
    // The dropped ones still verify (checked in full again).
    await expect(small.verify(tokens[0]!)).resolves.toMatchObject({ userId });
    expect(small.remembered).toBe(3);
    const none = await JwtVerifier.fromPems([publicPem], { cacheSize: 0 });
    await none.verify(tokens[0]!);
    expect(none.remembered).toBe(0);
  });
});
