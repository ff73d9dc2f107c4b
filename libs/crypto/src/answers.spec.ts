import { deriveAnswersAuth, normalizeAnswer } from './answers';
import { PBKDF2_FLOOR, SALT } from '../test/support/keys';

describe('security answers', () => {
  it('normalises: NFKC, trim, lower case, white-space runs to one space', () => {
    expect(normalizeAnswer('  Fluffy  the Cat ')).toBe('fluffy the cat');
    expect(normalizeAnswer('ＳＰＲＩＮＧＦＩＥＬＤ')).toBe('springfield');
    expect(normalizeAnswer('Mrs.\t\u00a0Krabappel\n')).toBe('mrs. krabappel');
    expect(normalizeAnswer('Cafe\u0301')).toBe('café');
    expect(normalizeAnswer('ﬁsh\u2003and\u3000chips')).toBe('fish and chips');
  });

  it('derives the same answersAuth for differently typed but equal answers, and another for other answers', async () => {
    const a = await deriveAnswersAuth(['Fluffy', ' springfield '], SALT, PBKDF2_FLOOR);
    const b = await deriveAnswersAuth(['  FLUFFY', 'Springfield'], SALT, PBKDF2_FLOOR);
    const c = await deriveAnswersAuth(['Springfield', 'Fluffy'], SALT, PBKDF2_FLOOR);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });

  it('refuses empty answers, separators inside answers and hostile KDF parameters', async () => {
    await expect(deriveAnswersAuth([], SALT, PBKDF2_FLOOR)).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(deriveAnswersAuth(['a', '   '], SALT, PBKDF2_FLOOR)).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    await expect(deriveAnswersAuth(['a\u0000b'], SALT, PBKDF2_FLOOR)).rejects.toMatchObject({
      code: 'BAD_INPUT',
    });
    await expect(
      deriveAnswersAuth(['a'], SALT, { kdf: 'pbkdf2-sha256', iterations: 10 }),
    ).rejects.toMatchObject({
      code: 'KDF_PARAMS_REJECTED',
    });
  });
});
