/**
 * Recovery mail as the local stack writes it: MAIL_TRANSPORT=log renders every message with
 * nodemailer and stores it as a .eml file in the run's mail folder (VAULT_E2E_MAIL_DIR, set by
 * scripts/e2e.mjs). A test finds its messages by recipient.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep } from './env';

export function mailDir(): string {
  const dir = process.env['VAULT_E2E_MAIL_DIR'];
  if (!dir)
    throw new Error('VAULT_E2E_MAIL_DIR is not set: run the API e2e tier with `node scripts/e2e.mjs`');
  return dir;
}

/** Every message (raw .eml text) addressed to `email`, oldest first. */
export async function mailsTo(email: string): Promise<string[]> {
  let files: string[];
  try {
    files = (await readdir(mailDir())).filter((f) => f.endsWith('.eml')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: string[] = [];
  const to = new RegExp(`^To: .*${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi');
  for (const file of files) {
    const raw = await readFile(join(mailDir(), file), 'utf8');
    if (to.test(raw)) out.push(raw);
  }
  return out;
}

/** Waits (up to `timeoutMs`) for message number `index` (0-based) to `email`; answers its 6-digit code. */
export async function recoveryCodeFor(email: string, index = 0, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = await mailsTo(email);
    const mail = mails[index];
    if (mail) {
      const code = /recovery code is (\d{6})/.exec(mail)?.[1];
      if (!code) throw new Error(`The mail to ${email} carries no 6-digit code`);
      return code;
    }
    await sleep(100);
  }
  throw new Error(`No recovery mail #${index + 1} reached ${email} within ${timeoutMs} ms`);
}
