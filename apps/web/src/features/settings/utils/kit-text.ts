/** The text files the Settings screen offers for download (built on this device, never uploaded). */

const stamp = (now: Date) => now.toISOString().slice(0, 10);

export function backupCodesFileName(now: Date): string {
  return `vault-backup-codes-${stamp(now)}.txt`;
}

export function backupCodesText(codes: string[], account: string, now: Date): string {
  return [
    'Vault backup codes',
    `Account: ${account}`,
    `Generated: ${now.toISOString()}`,
    '',
    'Each code signs you in once when your authenticator app is not at hand.',
    'Generating new codes makes all of these stop working.',
    '',
    ...codes.map((c, i) => `${String(i + 1).padStart(2, ' ')}. ${c}`),
    '',
  ].join('\n');
}

export function recoveryKitFileName(now: Date): string {
  return `vault-recovery-kit-${stamp(now)}.txt`;
}

export function recoveryKitText(recoveryKey: string, account: string, now: Date): string {
  return [
    'Vault recovery kit',
    '',
    `Account: ${account}`,
    `Created: ${now.toISOString()}`,
    '',
    'Recovery key:',
    recoveryKey,
    '',
    'What it is for',
    '- If you forget your password, this key is the only way to get your notes and files back:',
    '  Vault never sees your password or this key, so nobody else can recover your data for you.',
    '- On the sign-in page choose "Forgot password?", enter your e-mail and this key, then set a new password.',
    '',
    'Keep it safe',
    '- Print it or store it offline, away from your password (not in the vault itself).',
    '- Anyone with this key and access to your e-mail can take over your vault.',
    '- Creating a new recovery key in Settings makes this one stop working.',
    '',
  ].join('\n');
}
