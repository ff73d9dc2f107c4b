/**
 * Fuzzing access tokens (docs/fuzzing.md): every protected route hands the Authorization header
 * to bearerToken and JwtVerifier.verify. Garbage, near-valid mutations of a real token, headers
 * and claims of any shape, even correctly signed ones: each is refused with the one 401
 * UNAUTHENTICATED or accepted as a well-formed caller (UUID ids, a known role); nothing else is
 * ever thrown. With two keys (a rotation under way) the token's header is read first: the same holds.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { ErrorCode, ROLES, VaultError, type RpcAuth } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { bearerToken, JwtVerifier } from './jwt-verifier';

const ed = generateKeyPairSync('ed25519');
const other = generateKeyPairSync('ed25519');
const pem = (key: typeof ed) => key.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url');

function validClaims(sub: string = randomUUID(), sid: string = randomUUID()): Record<string, unknown> {
  return {
    sub,
    sid,
    role: 'user',
    aud: 'vault',
    iss: 'vault-auth',
    iat: now(),
    exp: now() + 900,
  };
}

/** The caller, or 'refused' when verify threw the 401; any other throw fails the property. */
async function verdict(verifier: JwtVerifier, token: string): Promise<RpcAuth | 'refused'> {
  try {
    return await verifier.verify(token);
  } catch (error) {
    if (!(error instanceof VaultError)) throw error;
    expect(error.code).toBe(ErrorCode.UNAUTHENTICATED);
    return 'refused';
  }
}

function expectWellFormed(auth: RpcAuth | 'refused'): void {
  if (auth === 'refused') return;
  expect(auth.userId).toMatch(UUID_RE);
  expect(auth.sessionId).toMatch(UUID_RE);
  expect(ROLES).toContain(auth.role);
}

/** Claim values of every JSON kind, and the right ones now and then. */
const claimValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('vault', 'vault-auth', 'user', 'admin', 'super_admin', ''),
  fc.integer().map((n) => now() + n),
  fc.uuid({ version: 4 }),
);
const claims = fc.oneof(
  fc.dictionary(
    fc.constantFrom('sub', 'sid', 'role', 'aud', 'iss', 'iat', 'exp', 'nbf', 'jti', '__proto__'),
    claimValue,
  ),
  fc
    .tuple(
      fc.constantFrom('sub', 'sid', 'role', 'aud', 'iss', 'iat', 'exp'),
      claimValue,
      fc.uuid({ version: 4 }),
      fc.uuid({ version: 4 }),
    )
    .map(([name, value, sub, sid]) => ({ ...validClaims(sub, sid), [name]: value })),
);
const header = fc.oneof(
  fc.constant({ alg: 'EdDSA', typ: 'JWT' }),
  fc.record(
    {
      alg: fc.constantFrom('EdDSA', 'none', 'HS256', 'ES256', 'RS256', ''),
      typ: fc.constantFrom('JWT', 'at+jwt'),
    },
    { requiredKeys: ['alg'] },
  ),
  fc.dictionary(fc.constantFrom('alg', 'typ', 'kid', 'crit', 'b64', 'jwk'), fc.jsonValue({ maxDepth: 2 })),
);

describe('access tokens (fuzz)', () => {
  let one: JwtVerifier;
  let two: JwtVerifier;
  let valid: string;
  beforeAll(async () => {
    one = await JwtVerifier.fromPem(pem(ed));
    two = await JwtVerifier.fromPems([pem(ed), pem(other)]);
    valid = await new SignJWT(validClaims())
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT' })
      .sign(ed.privateKey);
  });

  const garbage = fuzzSettings(500);
  it(
    garbage.title('any text and any near-valid mutation of a real token: the 401 or a well-formed caller'),
    async () => {
      const token = fc.oneof(
        hostileString(),
        mutationOf(valid),
        fc
          .tuple(header, claims, fc.base64String({ maxLength: 90 }))
          .map(
            ([h, c, sig]) =>
              `${b64(h)}.${b64(c)}.${sig.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}`,
          ),
      );
      await fuzz(
        fc.asyncProperty(token, async (text) => {
          const [a, b] = [await verdict(one, text), await verdict(two, text)];
          expectWellFormed(a);
          expectWellFormed(b);
          // Nothing but the real token itself is let in.
          if (a !== 'refused' || b !== 'refused') expect(text).toBe(valid);
        }),
        garbage,
      );
    },
    garbage.timeoutMs,
  );

  const signed = fuzzSettings(300);
  it(
    signed.title('correctly signed tokens with any header and claims: the 401 or a well-formed caller'),
    async () => {
      await fuzz(
        fc.asyncProperty(header, claims, fc.boolean(), async (h, c, rightKey) => {
          let token: string;
          try {
            token = await new SignJWT(c as Record<string, unknown>)
              .setProtectedHeader({ ...(h as Record<string, unknown>), alg: 'EdDSA' })
              .sign((rightKey ? ed : other).privateKey);
          } catch {
            // jose will not sign it (a header it rejects): no token to test.
            return;
          }
          const [a, b] = [await verdict(one, token), await verdict(two, token)];
          expectWellFormed(a);
          expectWellFormed(b);
          if (!rightKey) expect(a).toBe('refused');
        }),
        signed,
      );
    },
    signed.timeoutMs,
  );

  const headers = fuzzSettings(2_000);
  it(
    headers.title('bearerToken: any Authorization value gives undefined or one token without white space'),
    async () => {
      await fuzz(
        fc.property(
          fc.oneof(
            hostileString(),
            fc
              .tuple(
                fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Bearer\t'),
                fc.constantFrom(' ', '  ', '', '\t'),
                hostileString(40),
              )
              .map(([s, sp, t]) => `${s}${sp}${t}`),
            fc.array(fc.string(), { maxLength: 3 }),
            fc.constant(undefined),
          ),
          (value) => {
            const token = bearerToken(value);
            if (token !== undefined) {
              expect(typeof value).toBe('string');
              expect(token.length).toBeGreaterThan(0);
              expect(token).not.toMatch(/\s/);
            }
          },
        ),
        headers,
      );
    },
    headers.timeoutMs,
  );
});
