import { parseFirst } from '../common/validation';
import { DEFAULT_KDF_PARAMS } from '../common/kdf';
import {
  RECOVERY_MESSAGES,
  recoveryResetBodySchema,
  recoverySetupQuestionsBodySchema,
  recoveryVerifyEmailBodySchema,
  recoveryEmailCodeBodySchema,
} from './recovery.schema';

const hex = (bytes: number) => 'ab'.repeat(bytes);
const q = (question: string) => ({ question });

describe('recovery schemas', () => {
  it('lower-cases the address and asks for one when it is missing or blank', () => {
    expect(parseFirst(recoveryEmailCodeBodySchema, { email: ' Bob@Example.COM ' })).toEqual({
      ok: true,
      data: { email: 'bob@example.com' },
    });
    expect(parseFirst(recoveryEmailCodeBodySchema, { email: '  ' })).toMatchObject({
      ok: false,
      message: RECOVERY_MESSAGES.emailRequired,
    });
    expect(parseFirst(recoveryEmailCodeBodySchema, { email: 'nope' })).toMatchObject({
      ok: false,
      message: RECOVERY_MESSAGES.email,
    });
  });

  it('takes exactly 6 digits as a code', () => {
    for (const code of ['12345', '1234567', '12a456', ' 123456']) {
      expect(parseFirst(recoveryVerifyEmailBodySchema, { email: 'a@b.co', code })).toMatchObject({
        ok: false,
        message: RECOVERY_MESSAGES.code,
      });
    }
    expect(parseFirst(recoveryVerifyEmailBodySchema, { email: 'a@b.co', code: '012345' }).ok).toBe(true);
  });

  it('wants exactly 3 questions of at least 10 characters (trimmed), with the spec message', () => {
    const body = (questions: unknown) => ({ questions, questionsSalt: hex(16), answersAuth: hex(32) });
    const good = [q('What was your first pet?'), q('Where were you born?'), q('Favourite teacher?')];
    expect(parseFirst(recoverySetupQuestionsBodySchema, body(good)).ok).toBe(true);
    for (const bad of [
      good.slice(0, 2),
      [...good, q('One more question?')],
      [good[0], good[1], q('  short    ')],
    ]) {
      expect(parseFirst(recoverySetupQuestionsBodySchema, body(bad))).toMatchObject({
        ok: false,
        message: RECOVERY_MESSAGES.questions,
      });
    }
    // Answers never reach the server: a body that carries them is refused outright.
    const withAnswer = [{ question: 'What was your first pet?', answer: 'rex' }, good[1], good[2]];
    expect(parseFirst(recoverySetupQuestionsBodySchema, body(withAnswer)).ok).toBe(false);
  });

  it('needs newVaultKey to be said out loud on a reset', () => {
    const base = {
      bypassToken: 'tok',
      authKey: hex(32),
      salt: hex(16),
      kdfParams: DEFAULT_KDF_PARAMS,
      wrappedVaultKey: `${'0'.repeat(96)}:${'1'.repeat(24)}`,
    };
    expect(parseFirst(recoveryResetBodySchema, base).ok).toBe(false);
    expect(parseFirst(recoveryResetBodySchema, { ...base, newVaultKey: true }).ok).toBe(true);
    expect(parseFirst(recoveryResetBodySchema, { ...base, newVaultKey: false, code: '123456' }).ok).toBe(
      true,
    );
  });
});
