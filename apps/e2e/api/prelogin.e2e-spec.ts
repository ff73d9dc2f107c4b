import type { PreloginResponse } from '@vault/contracts';
import { DEFAULT_KDF_PARAMS } from '@vault/crypto';
import { FAST_KDF, signUp, uniqueId, type TestAccount } from '../support/accounts';
import { expectError } from '../support/expect';
import { ApiClient } from '../support/http';

describe('POST /api/auth/prelogin', () => {
  const api = new ApiClient('prelogin');
  let account: TestAccount;

  const prelogin = (identifier: unknown) =>
    api.post<PreloginResponse>('/api/auth/prelogin', { identifier }, { token: null });

  beforeAll(async () => {
    account = await signUp({ kdfParams: FAST_KDF });
  });

  it("answers the account's own salt and KDF parameters for its username", async () => {
    const res = await prelogin(account.identity.username);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ salt: account.keys.salt, kdfParams: FAST_KDF });
  });

  it('answers the same salt for the e-mail address, in any letter case', async () => {
    const lower = await prelogin(account.identity.email);
    const upper = await prelogin(account.identity.email.toUpperCase());
    expect([lower.status, upper.status]).toEqual([200, 200]);
    expect(lower.body).toEqual({ salt: account.keys.salt, kdfParams: FAST_KDF });
    expect(upper.body).toEqual(lower.body);
  });

  it('answers an unknown identifier with a fake of the same shape: 16-byte salt, default parameters', async () => {
    const real = await prelogin(account.identity.username);
    const fake = await prelogin(`${uniqueId('nobody')}@example.com`);
    expect(fake.status).toBe(200);
    expect(fake.body.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(fake.body.kdfParams).toEqual(DEFAULT_KDF_PARAMS);
    expect(Object.keys(fake.body).sort()).toEqual(Object.keys(real.body).sort());
    expect(fake.headers.get('content-type')).toBe(real.headers.get('content-type'));
  });

  it('answers the same fake salt every time for the same unknown identifier, whatever its case', async () => {
    const identifier = `${uniqueId('ghost')}@example.com`;
    const first = await prelogin(identifier);
    const again = await prelogin(identifier);
    const upper = await prelogin(identifier.toUpperCase());
    expect([first.status, again.status, upper.status]).toEqual([200, 200, 200]);
    expect(again.body).toEqual(first.body);
    expect(upper.body).toEqual(first.body);
  });

  it('answers different fake salts for different unknown identifiers', async () => {
    const a = await prelogin(uniqueId('ghost'));
    const b = await prelogin(uniqueId('ghost'));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.salt).not.toBe(b.body.salt);
  });

  it("does not reveal an account's salt under another identifier", async () => {
    const fake = await prelogin(`${account.identity.username}x`);
    expect(fake.status).toBe(200);
    expect(fake.body.salt).not.toBe(account.keys.salt);
  });

  it("refuses a missing or blank identifier with 400 'Please fill in all fields'", async () => {
    expectError(await api.post('/api/auth/prelogin', {}, { token: null }), 400, 'Please fill in all fields');
    expectError(await prelogin('   '), 400, 'Please fill in all fields');
  });

  it("refuses an unknown field with 400 'Unknown field: ...'", async () => {
    const res = await api.post(
      '/api/auth/prelogin',
      { identifier: account.identity.username, extra: 1 },
      { token: null },
    );
    expectError(res, 400, 'Unknown field: extra');
  });
});
