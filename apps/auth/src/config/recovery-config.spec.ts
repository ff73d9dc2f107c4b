import { join, resolve } from 'node:path';
import { describeConfig, loadAuthConfig } from './auth.config';

const minimal = {
  JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----',
  JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
  SERVER_SECRET: 'x'.repeat(32),
};
const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');

describe('auth configuration: recovery and mail', () => {
  it('defaults to .eml files under .data/mail and the spec limits', () => {
    const config = loadAuthConfig(minimal);
    expect(config.mail).toEqual({
      transport: 'log',
      smtpUrl: undefined,
      from: 'Vault <no-reply@vault.localhost>',
      dir: join(REPO_ROOT, '.data', 'mail'),
    });
    expect(config.recovery).toEqual({
      codeTtlSeconds: 900,
      bypassTtlSeconds: 600,
      codeEmailMax: 3,
      codeIpMax: 20,
      codeWindowSeconds: 900,
      verifyMaxFailures: 5,
      verifyWindowSeconds: 3600,
    });
  });

  it('puts the mail folder under VAULT_DATA_DIR unless MAIL_DIR says otherwise', () => {
    expect(loadAuthConfig({ ...minimal, VAULT_DATA_DIR: '/srv/vault' }).mail.dir).toBe('/srv/vault/mail');
    expect(loadAuthConfig({ ...minimal, MAIL_DIR: '/tmp/m' }).mail.dir).toBe('/tmp/m');
  });

  it('needs SMTP_URL with MAIL_TRANSPORT=smtp, and masks its password in the boot log', () => {
    expect(() => loadAuthConfig({ ...minimal, MAIL_TRANSPORT: 'smtp' })).toThrow(/SMTP_URL: required/);
    expect(() => loadAuthConfig({ ...minimal, SMTP_URL: 'http://relay' })).toThrow(/SMTP_URL/);
    const config = loadAuthConfig({
      ...minimal,
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: 'smtps://vault:hunter2-pw@smtp.example.com:465',
    });
    expect(config.mail).toMatchObject({
      transport: 'smtp',
      smtpUrl: 'smtps://vault:hunter2-pw@smtp.example.com:465',
    });
    expect(JSON.stringify(describeConfig(config))).not.toContain('hunter2-pw');
  });
});
