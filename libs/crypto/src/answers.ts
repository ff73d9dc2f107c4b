/**
 * Protocol v1, "Recovery" (2): security answers. They gate an access reset only; no key is wrapped under them.
 *
 *   normalize(a) = NFKC, trim, lowercase, runs of white space become one space
 *   k            = KDF(join(normalize(a_i), U+0000), questionsSalt, account kdfParams)
 *   answersAuth  = hex(HKDF(k, "vault:v1:answers-auth"))      sent to the server (stored as a slow hash)
 */
import { badInput } from './errors';
import { bytesToHex } from './encoding';
import { HKDF_INFO, derivePasswordKey } from './kdf';
import { hkdfBytes } from './primitives';
import type { BytesOrHex, Hex, KdfParams } from './types';
import { requireString, wipe } from './validate';

export function normalizeAnswer(answer: string): string {
  requireString(answer, 'answer');
  return answer.normalize('NFKC').trim().toLowerCase().replace(/\s+/gu, ' ');
}

export async function deriveAnswersAuth(
  answers: readonly string[],
  questionsSaltHex: BytesOrHex,
  kdfParams: KdfParams,
): Promise<Hex> {
  if (!Array.isArray(answers) || answers.length === 0)
    throw badInput('answers must be a non-empty array of strings');
  const normalized = answers.map((a: unknown, i) => {
    const n = normalizeAnswer(requireString(a, `answers[${i}]`));
    if (n.length === 0) throw badInput(`answers[${i}] is empty after normalisation`);
    if (n.includes('\u0000')) throw badInput(`answers[${i}] contains U+0000, the separator`);
    return n;
  });
  const k = await derivePasswordKey(normalized.join('\u0000'), questionsSaltHex, kdfParams);
  try {
    const auth = await hkdfBytes(k, HKDF_INFO.answersAuth);
    const hex = bytesToHex(auth);
    wipe(auth);
    return hex;
  } finally {
    wipe(k);
  }
}
