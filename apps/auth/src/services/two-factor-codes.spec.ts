import { BACKUP_CODE_DISPLAY_RE } from '@vault/contracts';
import { generate, generateSecret } from 'otplib';
import {
  backupCodesWarning,
  checkTotp,
  formatBackupCode,
  generateBackupCodes,
  normalizeBackupCode,
  normalizeTotpCode,
  otpauthUrl,
  totpTimeStep,
} from './two-factor-codes';

describe('two-factor code formats', () => {
  it('reads 6-digit codes, ignoring the spaces apps show, and nothing else', () => {
    expect(normalizeTotpCode('123456')).toBe('123456');
    expect(normalizeTotpCode(' 123 456 ')).toBe('123456');
    for (const bad of ['', '12345', '1234567', '12a456', '１２３４５６'])
      expect(normalizeTotpCode(bad)).toBeNull();
  });

  it('accepts backup codes with or without the hyphen, in any case', () => {
    expect(normalizeBackupCode('ABCD-1234')).toBe('ABCD1234');
    expect(normalizeBackupCode('abcd1234')).toBe('ABCD1234');
    expect(normalizeBackupCode(' 0f0f-a1b2 ')).toBe('0F0FA1B2');
    for (const bad of ['', 'ABCD-123', 'ABCD-12345', 'ABCG-1234', 'AB CD1234']) {
      expect(normalizeBackupCode(bad)).toBeNull();
    }
  });

  it('generates 10 distinct codes of 8 characters A-F0-9, shown XXXX-XXXX', () => {
    const codes = generateBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[A-F0-9]{8}$/);
      expect(formatBackupCode(code)).toMatch(BACKUP_CODE_DISPLAY_RE);
      expect(normalizeBackupCode(formatBackupCode(code))).toBe(code);
    }
  });

  it('warns when 2 or fewer backup codes remain', () => {
    expect(backupCodesWarning(3)).toBeUndefined();
    expect(backupCodesWarning(2)).toBe('You have 2 backup codes left. Generate new ones in Settings.');
    expect(backupCodesWarning(1)).toBe('You have 1 backup code left. Generate new ones in Settings.');
    expect(backupCodesWarning(0)).toBe('You have 0 backup codes left. Generate new ones in Settings.');
  });

  it('builds the otpauth URL with issuer Vault and the e-mail as label', () => {
    const url = new URL(otpauthUrl('JBSWY3DPEHPK3PXP', 'ann@example.com'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Vault:ann@example.com');
    expect(url.searchParams.get('secret')).toBe('JBSWY3DPEHPK3PXP');
    expect(url.searchParams.get('issuer')).toBe('Vault');
  });
});

describe(checkTotp.name, () => {
  const secret = generateSecret();
  // The middle of a step, so that ±30 s lands squarely in the neighbouring steps.
  const now = 1_795_400_000 - (1_795_400_000 % 30) + 15;
  const codeAt = (epoch: number) => generate({ secret, epoch });

  it('accepts the current step and ±1 step, naming the step the code belongs to', async () => {
    for (const offset of [-1, 0, 1]) {
      const result = await checkTotp(secret, await codeAt(now + offset * 30), now);
      expect(result).toEqual({ valid: true, timeStep: totpTimeStep(now) + offset });
    }
  });

  it('refuses ±2 steps', async () => {
    for (const offset of [-2, 2]) {
      expect(await checkTotp(secret, await codeAt(now + offset * 30), now)).toEqual({ valid: false });
    }
  });

  it('accepts the previous step even at the very end of the current one (tolerance in seconds)', async () => {
    const lateInStep = now + 14;
    expect((await checkTotp(secret, await codeAt(now - 30), lateInStep)).valid).toBe(true);
    expect((await checkTotp(secret, await codeAt(now - 60), lateInStep)).valid).toBe(false);
  });

  it('refuses malformed codes and another secret’s code', async () => {
    expect(await checkTotp(secret, 'abcdef', now)).toEqual({ valid: false });
    expect(await checkTotp(secret, '', now)).toEqual({ valid: false });
    const other = await generate({ secret: generateSecret(), epoch: now });
    const own = await codeAt(now);
    // One chance in a million that the two coincide; skip the assertion only then.
    if (other !== own) expect(await checkTotp(secret, other, now)).toEqual({ valid: false });
  });
});
