import { ACCESS_TOKEN, ErrorCode } from '@vault/contracts';
import { signUp, type TestAccount } from '../support/accounts';
import { expectError } from '../support/expect';
import { ApiClient } from '../support/http';
import {
  algNoneToken,
  decodeJwt,
  foreignEdDsaToken,
  hs256Token,
  tamperPayload,
  tamperSignature,
} from '../support/jwt';

const ME = '/api/auth/me';

describe('access tokens at the gateway', () => {
  let account: TestAccount;
  let other: TestAccount;
  let token: string;
  const api = new ApiClient('tokens');

  const meWith = (authorization: string | undefined) =>
    api.get(ME, { token: null, headers: authorization === undefined ? {} : { authorization } });

  beforeAll(async () => {
    account = await signUp();
    other = await signUp();
    token = account.signup.body.access;
  });

  it('accepts the genuine token (the control for every refusal below)', async () => {
    const res = await meWith(`Bearer ${token}`);
    expect(res.status).toBe(200);
    expect((res.body as { user: { id: string } }).user.id).toBe(account.user.id);
  });

  it('is signed with an asymmetric algorithm', () => {
    expect(ACCESS_TOKEN.algorithms as readonly string[]).toContain(decodeJwt(token).header['alg']);
    expect(['EdDSA', 'ES256']).toContain(decodeJwt(token).header['alg']);
  });

  it('answers 401 with a JSON error when no token comes', async () => {
    const res = await meWith(undefined);
    expectError(res, 401, /\S/, { code: ErrorCode.UNAUTHENTICATED });
  });

  it.each([
    ['an empty Bearer', 'Bearer '],
    ['a token that is not a JWT', 'Bearer not-a-jwt'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('answers 401 to %s', async (_label, authorization) => {
    expect((await meWith(authorization)).status).toBe(401);
  });

  it('answers 401 to a token whose signature was altered', async () => {
    expect((await meWith(`Bearer ${tamperSignature(token)}`)).status).toBe(401);
  });

  it("answers 401 to a token whose payload was altered (another user's id, the admin role, a later expiry)", async () => {
    for (const change of [{ sub: other.user.id }, { role: 'super_admin' }, { exp: 4102444800 }]) {
      const res = await meWith(`Bearer ${tamperPayload(token, change)}`);
      expect({ change, status: res.status }).toEqual({ change, status: 401 });
    }
  });

  it('answers 401 to an unsigned token (alg none, in any spelling)', async () => {
    const { payload, parts } = decodeJwt(token);
    for (const alg of ['none', 'None', 'NONE']) {
      expect((await meWith(`Bearer ${algNoneToken(payload, alg)}`)).status).toBe(401);
      // The same, with the genuine signature left in place.
      expect((await meWith(`Bearer ${algNoneToken(payload, alg)}${parts[2]}`)).status).toBe(401);
    }
  });

  it('answers 401 to an HS256 token with the same claims (algorithm confusion)', async () => {
    const { header, payload } = decodeJwt(token);
    for (const secret of ['secret', '', account.user.id]) {
      expect((await meWith(`Bearer ${hs256Token(payload, secret, header)}`)).status).toBe(401);
    }
  });

  it('answers 401 to a well-formed EdDSA token signed by a key the server does not hold', async () => {
    const { header, payload } = decodeJwt(token);
    expect((await meWith(`Bearer ${foreignEdDsaToken(header, payload)}`)).status).toBe(401);
  });

  it('answers 401 to the token of a session that has ended, though its signature and expiry are still good', async () => {
    const { client, signup } = await signUp();
    expect((await client.post('/api/auth/logout')).status).toBe(204);

    const res = await meWith(`Bearer ${signup.body.access}`);
    expect(res.status).toBe(401);
    expect(Number(decodeJwt(signup.body.access).payload['exp']) * 1000).toBeGreaterThan(Date.now());
  });
});
