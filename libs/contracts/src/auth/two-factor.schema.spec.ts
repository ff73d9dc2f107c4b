import { parseFirst } from '../common/validation';
import {
  backupLoginBodySchema,
  twoFactorEnableBodySchema,
  twoFactorLoginBodySchema,
  twoFactorProofBodySchema,
  twoFactorVerifyBodySchema,
} from './two-factor.schema';

const authKey = 'ab'.repeat(32);

describe('two-factor bodies', () => {
  it('enable takes an empty object and nothing else', () => {
    expect(parseFirst(twoFactorEnableBodySchema, {})).toEqual({ ok: true, data: {} });
    expect(parseFirst(twoFactorEnableBodySchema, { email: 'a@b.c' })).toMatchObject({
      ok: false,
      message: 'Unknown field: email',
    });
  });

  it("verify needs a code, with the spec's message when it is missing", () => {
    expect(parseFirst(twoFactorVerifyBodySchema, { code: ' 123456 ' })).toEqual({
      ok: true,
      data: { code: '123456' },
    });
    expect(parseFirst(twoFactorVerifyBodySchema, {})).toMatchObject({
      ok: false,
      message: 'Please enter verification code',
    });
    expect(parseFirst(twoFactorVerifyBodySchema, { code: '' })).toMatchObject({
      ok: false,
      message: 'Please enter verification code',
    });
  });

  it('disable and regenerate take exactly one of code and authKey', () => {
    expect(parseFirst(twoFactorProofBodySchema, { code: '123456' }).ok).toBe(true);
    expect(parseFirst(twoFactorProofBodySchema, { authKey }).ok).toBe(true);
    for (const body of [{}, { code: '123456', authKey }]) {
      expect(parseFirst(twoFactorProofBodySchema, body)).toMatchObject({
        ok: false,
        message: 'Please enter a verification code or your password',
      });
    }
    expect(parseFirst(twoFactorProofBodySchema, { authKey: 'nothex' }).ok).toBe(false);
  });

  it('the second sign-in steps carry the credentials and their code', () => {
    expect(parseFirst(twoFactorLoginBodySchema, { identifier: 'ann', authKey, code: '123456' }).ok).toBe(
      true,
    );
    expect(parseFirst(twoFactorLoginBodySchema, { identifier: 'ann', authKey })).toMatchObject({
      ok: false,
      message: 'Please enter verification code',
    });
    expect(
      parseFirst(backupLoginBodySchema, { identifier: 'ann', authKey, backupCode: 'abcd-1234' }).ok,
    ).toBe(true);
    expect(parseFirst(backupLoginBodySchema, { identifier: 'ann', authKey })).toMatchObject({
      ok: false,
      message: 'Please enter a backup code',
    });
    expect(
      parseFirst(backupLoginBodySchema, { identifier: 'ann', authKey, backupCode: 'x', totpCode: '1' }),
    ).toMatchObject({ ok: false, message: 'Unknown field: totpCode' });
  });
});
