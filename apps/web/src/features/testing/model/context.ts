import type { ApiClient } from '../../../lib/api-client';
import type { RuntimeConfig } from '../../../lib/runtime-config';
import type { CryptoService } from '../../../workers/crypto-service';
import type { FilesCrypto } from '../../../workers/files-crypto';
import type { FilesDownloadCrypto } from '../../../workers/files-download-crypto';
import type { NotesCrypto } from '../../../workers/notes-crypto';
import type { CheckContext } from './suite';

/**
 * What the dashboard's checks run with: the signed-in user's own session and this device. Built by
 * the page from the app's services (app/services.tsx); suites never reach outside it.
 */
export interface TestingContext extends CheckContext {
  /** The app's API client (bearer token, refresh): every call passes `signal`. */
  api: ApiClient;
  /** The vault's crypto Worker (the same one the vault uses; the vault key stays inside it). */
  crypto: CryptoService;
  config: RuntimeConfig;
  /** The signed-in user, as the session holds it. */
  user: { id: string; email: string; twoFactorEnabled: boolean };
  /** The vault key (non-extractable), null while the vault is locked: the e2e suite needs it. */
  vaultKey: CryptoKey | null;
  /** Plain fetch for what the API client hides (headers, Date, cookies): same origin only. */
  fetch: typeof fetch;
  /** The notes and files Workers the vault seals with (the e2e suite's round trips). */
  notesCrypto: NotesCrypto;
  filesCrypto: FilesCrypto;
  filesDownloadCrypto: FilesDownloadCrypto;
  /**
   * The file password's authKey for a download URL (docs/api.md: downloads ask for the password),
   * when the page asked for it; absent or null: the e2e file check reads back the sealed record
   * only, not the stored bytes.
   */
  fileAuthKey?: () => Promise<string | null>;
  /** The page's address (HTTPS check) and its script-readable cookies (the refresh cookie check). */
  pageUrl: string;
  readCookies(): string;
  /** The device clock in ms since the epoch (the clock-skew check). */
  now(): number;
}
