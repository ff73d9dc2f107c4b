import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';
import type { AuthConfig } from '../config/auth.config';
import { AUTH_CONFIG } from './connections';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends mail with nodemailer. `MAIL_TRANSPORT=log` (local default) renders the full message
 * and writes it as a .eml file under MAIL_DIR, logging only that a mail was written;
 * `smtp` sends through SMTP_URL (Mailpit in compose, a real relay in production). Neither
 * logs a body, a code or an address.
 */
@Injectable()
export class MailerRepository implements OnApplicationShutdown {
  private readonly logger = new Logger(MailerRepository.name);
  private readonly transporter: Transporter;

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {
    this.transporter =
      config.mail.transport === 'smtp' && config.mail.smtpUrl
        ? createTransport(config.mail.smtpUrl)
        : createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = (await this.transporter.sendMail({ from: this.config.mail.from, ...mail })) as {
      message?: Buffer;
      messageId?: string;
    };
    if (this.config.mail.transport === 'smtp') {
      this.logger.log(`Mail sent over SMTP (message ${info.messageId ?? '?'})`);
      return;
    }
    if (!Buffer.isBuffer(info.message)) throw new Error('The log transport rendered no message');
    await mkdir(this.config.mail.dir, { recursive: true, mode: 0o700 });
    const file = join(this.config.mail.dir, `${Date.now()}-${randomUUID()}.eml`);
    await writeFile(file, info.message, { mode: 0o600 });
    this.logger.log(`Mail written to ${file} (MAIL_TRANSPORT=log)`);
  }

  /** Closes pooled SMTP connections, if any (the mail worker has stopped by then). */
  onApplicationShutdown(): void {
    this.transporter.close();
  }
}
