/**
 * Sign-in identifiers (issue: a username made of digits took over someone's phone sign-in). The
 * rule, as apps/auth/README.md "Identifiers" writes it: an identifier's shape decides what it
 * names (an `@`: e-mail; digits and phone punctuation: phone number; else username); usernames
 * must hold a letter; phone numbers are compared in one normal form and are unique.
 */
import { ErrorCode, SIGNUP_MESSAGES, type PreloginResponse } from '@vault/contracts';
import { DEFAULT_KDF_PARAMS } from '@vault/crypto';
import {
  FAST_KDF,
  login,
  newIdentity,
  prepareAccount,
  randomDigits,
  signUp,
  type TestAccount,
} from '../support/accounts';
import { expectError } from '../support/expect';
import { ApiClient } from '../support/http';

describe('sign-in identifiers', () => {
  const api = new ApiClient('identifiers');
  const digits = `555${randomDigits(7)}`;
  const spellings = [
    digits,
    `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`,
    `(${digits.slice(0, 3)}) ${digits.slice(3, 6)} ${digits.slice(6)}`,
  ];
  let victim: TestAccount;

  const prelogin = async (identifier: string) =>
    (await api.post<PreloginResponse>('/api/auth/prelogin', { identifier }, { token: null })).body;

  beforeAll(async () => {
    victim = await signUp({ identity: { ...newIdentity('phone'), phoneNumber: spellings[1]! } });
  });

  it('refuses a username without a letter, so none can read as a phone number', async () => {
    for (const username of [digits, spellings[1]!, `${digits.slice(0, 3)}.${digits.slice(3)}`]) {
      const attacker = await prepareAccount(newIdentity('attacker'));
      const res = await api.post('/api/auth/signup', { ...attacker.body, username }, { token: null });
      expectError(res, 400, SIGNUP_MESSAGES.usernameLetter, { code: ErrorCode.VALIDATION_FAILED });
    }
  });

  it("answers the phone's own account for every spelling of the number, and signs it in", async () => {
    for (const identifier of spellings) {
      expect(await prelogin(identifier)).toEqual({ salt: victim.keys.salt, kdfParams: FAST_KDF });
      const res = await login(new ApiClient('phone-login'), identifier, victim.keys.authKey);
      expect({ identifier, status: res.status }).toEqual({ identifier, status: 200 });
      expect(res.body.user.id).toBe(victim.user.id);
    }
  });

  it('refuses a second account with the same number in any spelling: 409 Phone number already registered', async () => {
    for (const phoneNumber of [digits, spellings[2]!]) {
      const other = await prepareAccount({ ...newIdentity('twin'), phoneNumber });
      const res = await api.post('/api/auth/signup', other.body, { token: null });
      expectError(res, 409, 'Phone number already registered', { code: ErrorCode.PHONE_TAKEN });
    }
    // A number with a leading + is another number (no country is assumed).
    const plus = await prepareAccount({ ...newIdentity('plus'), phoneNumber: `+${digits}` });
    expect((await api.post('/api/auth/signup', plus.body, { token: null })).status).toBe(201);
    expect(await prelogin(`+${digits}`)).toEqual({ salt: plus.keys.salt, kdfParams: FAST_KDF });
    expect(await prelogin(digits)).toEqual({ salt: victim.keys.salt, kdfParams: FAST_KDF });
  });

  it('answers an unknown number with one fake salt whatever its spelling (nothing tells it from a real one)', async () => {
    const unknown = `444${randomDigits(7)}`;
    const a = await prelogin(unknown);
    const b = await prelogin(`${unknown.slice(0, 3)}-${unknown.slice(3, 6)}-${unknown.slice(6)}`);
    expect(a).toEqual(b);
    expect(a.kdfParams).toEqual(DEFAULT_KDF_PARAMS);
    expect(a.salt).toMatch(/^[0-9a-f]{32}$/);
  });

  it('still signs the victim in by username and e-mail', async () => {
    for (const identifier of [victim.identity.username, victim.identity.email]) {
      expect((await login(new ApiClient('other-ids'), identifier, victim.keys.authKey)).status).toBe(200);
    }
  });
});
