import { downloadFile } from '../../../lib/download-file';

/** The recovery kit: a small text file with the recovery key and how to use it. */
export interface RecoveryKitInput {
  email: string;
  recoveryKeyText: string;
  createdAt: Date;
}

export const RECOVERY_KIT_FILE_NAME = 'vault-recovery-kit.txt';

export function recoveryKitText({ email, recoveryKeyText, createdAt }: RecoveryKitInput): string {
  return [
    'VAULT RECOVERY KIT',
    '',
    `Account email: ${email}`,
    `Created:       ${createdAt.toISOString().slice(0, 10)}`,
    '',
    'Recovery key:',
    recoveryKeyText,
    '',
    'What it is',
    'Your password encrypts your vault and nobody can reset it for you. This key is the only other',
    'way to open your vault: if you forget your password, it brings back your notes and files.',
    '',
    'How to use it',
    '1. On the sign-in page, choose "Forgot your password?".',
    '2. Enter your account email and choose "Recovery Key".',
    '3. Paste the key above, then choose a new password.',
    '',
    'Keep it safe',
    '- Print it or keep it in a password manager, away from this device.',
    '- Anyone with this key and access to your email address can open your vault.',
    '- Making a new recovery key in Settings replaces this one.',
    '',
  ].join('\n');
}

/** Saves the kit through a Blob download (the key never leaves the device). */
export function downloadRecoveryKit(input: RecoveryKitInput): void {
  // The URL is kept long enough for every browser to start the download.
  downloadFile(RECOVERY_KIT_FILE_NAME, recoveryKitText(input), { keepUrlMs: 40_000 });
}

/** Copies text; false when the browser refuses (the user can still select the key). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
