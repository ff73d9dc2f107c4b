import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  TWO_FACTOR_MESSAGES,
  VaultError,
  type BackupCodesInfoResponse,
  type BackupCodesResponse,
  type RpcAuth,
  type RpcContext,
  type SecondFactorProof,
  type TwoFactorEnableResponse,
  type TwoFactorProofBody,
  type TwoFactorVerifyBody,
} from '@vault/contracts';
import { bytesToUtf8, hkdf, open, seal, utf8ToBytes } from '@vault/crypto';
import { hmacSha256, SecretHasher, sha256Hex, type RateLimitRule } from '@vault/server-kit';
import { generateSecret } from 'otplib';
import type { AuthConfig } from '../config/auth.config';
import type { SecurityEventDetails } from '../entities/security-event.entity';
import type { UserEntity } from '../entities/user.entity';
import { AUTH_CONFIG } from '../repositories/connections';
import { TwoFactorRepository } from '../repositories/two-factor.repository';
import { UsersRepository } from '../repositories/users.repository';
import { SecurityEventsService } from './security-events.service';
import {
  checkTotp,
  formatBackupCode,
  generateBackupCodes,
  normalizeBackupCode,
  otpauthUrl,
} from './two-factor-codes';

/** HKDF labels of the server's own keys (not part of the end-to-end protocol). */
export const SERVER_KEY_INFO = {
  totpSecret: 'vault:server:v1:totp-secret',
  backupCode: 'vault:server:v1:backup-code',
} as const;

/** AAD of a sealed TOTP secret: a sealed secret moved to another user's row does not open. */
export const totpSecretAad = (userId: string): string => `${SERVER_KEY_INFO.totpSecret}:${userId}`;

/**
 * A spent time step is remembered while its code could still be accepted: from 30 s before
 * its step to 30 s after (90 s), plus margin for clock differences between replicas.
 */
const REPLAY_MARK_SECONDS = 120;

/** Wrong codes or keys on the signed-in 2FA calls (and recovery's check) per user and window. */
export const TWO_FACTOR_FAILURES: RateLimitRule = { limit: 10, windowMs: 900_000 };

export type SecondFactorMethod = 'totp' | 'backup_code';

export type SecondFactorOutcome =
  | { ok: true; method: SecondFactorMethod; remainingBackupCodes?: number }
  | { ok: false; error: typeof ErrorCode.INVALID_VERIFICATION_CODE | typeof ErrorCode.INVALID_BACKUP_CODE };

const ALREADY_ENABLED = 'Two-factor authentication is already enabled';
const NOT_ENABLED = 'Two-factor authentication is not enabled';

/**
 * Two-factor authentication: the authenticator secret (sealed at rest under a key derived
 * from SERVER_SECRET), TOTP checks with a replay mark per time step, and backup codes
 * (keyed hashes, single use). Sign-in calls `checkSecondFactor`; account recovery calls
 * `verifySecondFactor`.
 */
@Injectable()
export class TwoFactorService {
  private readonly logger = new Logger(TwoFactorService.name);
  private keys?: Promise<{ totp: Uint8Array; backup: Buffer }>;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly users: UsersRepository,
    private readonly repo: TwoFactorRepository,
    private readonly hasher: SecretHasher,
    private readonly events: SecurityEventsService,
  ) {}

  /** A new pending secret (not active until `verify`); answers the otpauth URL for the QR code. */
  async enable(auth: RpcAuth): Promise<TwoFactorEnableResponse> {
    const user = await this.requireUser(auth.userId);
    if (user.twoFactorEnabled) throw new VaultError(ErrorCode.CONFLICT, ALREADY_ENABLED);
    const secret = generateSecret();
    if (!(await this.repo.savePending(user.id, await this.sealSecret(user.id, secret)))) {
      throw new VaultError(ErrorCode.CONFLICT, ALREADY_ENABLED);
    }
    return { otpauthUrl: otpauthUrl(secret, user.email) };
  }

  /** The first code from the app turns 2FA on and answers the first backup codes (shown once). */
  async verify(auth: RpcAuth, body: TwoFactorVerifyBody, ctx: RpcContext): Promise<BackupCodesResponse> {
    const user = await this.requireUser(auth.userId);
    if (user.twoFactorEnabled) throw new VaultError(ErrorCode.CONFLICT, ALREADY_ENABLED);
    await this.assertNotThrottled(user.id);
    const row = await this.repo.findTotp(user.id);
    // The contract answers this step's wrong code with a 400 (the form's error), not a 401.
    const invalid = new VaultError(ErrorCode.VALIDATION_FAILED, TWO_FACTOR_MESSAGES.invalidCode);
    if (!row || row.enabledAt !== null || !(await this.checkCode(user.id, row.secretSealed, body.code))) {
      await this.recordFailure(user.id, ctx, { call: 'verify', method: 'totp' });
      throw invalid;
    }
    const codes = generateBackupCodes();
    const hashes = await Promise.all(codes.map((c) => this.hashBackupCode(user.id, c)));
    const event = this.events.build('two_factor_enabled', user.id, ctx, { backupCodes: codes.length });
    // A concurrent enable replaced the secret this code was checked against.
    if (!(await this.repo.activate(user.id, row.secretSealed, hashes, event))) throw invalid;
    await this.repo.clearFailures(user.id);
    this.logger.log(`Two-factor authentication enabled: user ${user.id}`);
    return { backupCodes: codes.map(formatBackupCode) };
  }

  /** Off again, proven by a current code or the authKey: the secret and backup codes are deleted. */
  async disable(auth: RpcAuth, body: TwoFactorProofBody, ctx: RpcContext): Promise<void> {
    const user = await this.requireUser(auth.userId);
    if (!user.twoFactorEnabled) throw new VaultError(ErrorCode.CONFLICT, NOT_ENABLED);
    const method = await this.assertProof(user, body, ctx, 'disable');
    await this.repo.disable(user.id, this.events.build('two_factor_disabled', user.id, ctx, { method }));
    this.logger.log(`Two-factor authentication disabled: user ${user.id}`);
  }

  async backupCodesInfo(auth: RpcAuth): Promise<BackupCodesInfoResponse> {
    const stats = await this.repo.backupCodeStats(auth.userId);
    return {
      unusedCodesCount: stats.unused,
      totalCodes: stats.total,
      generated: stats.generated ? stats.generated.toISOString() : null,
    };
  }

  /** A new set of 10 codes; every earlier code stops working. */
  async regenerate(auth: RpcAuth, body: TwoFactorProofBody, ctx: RpcContext): Promise<BackupCodesResponse> {
    const user = await this.requireUser(auth.userId);
    if (!user.twoFactorEnabled) throw new VaultError(ErrorCode.CONFLICT, NOT_ENABLED);
    const method = await this.assertProof(user, body, ctx, 'regenerate');
    const codes = generateBackupCodes();
    const hashes = await Promise.all(codes.map((c) => this.hashBackupCode(user.id, c)));
    await this.repo.replaceBackupCodes(
      user.id,
      hashes,
      this.events.build('backup_codes_regenerated', user.id, ctx, { method, backupCodes: codes.length }),
    );
    return { backupCodes: codes.map(formatBackupCode) };
  }

  /**
   * For account recovery: true only when the proof is a valid, unused authenticator code or
   * an unused backup code (which is then spent). Callers check `twoFactorEnabled` first.
   * Wrong proofs count toward a per-user limit; past it this throws RATE_LIMITED (429).
   */
  async verifySecondFactor(userId: string, proof: SecondFactorProof, ctx: RpcContext): Promise<boolean> {
    await this.assertNotThrottled(userId);
    const outcome = await this.checkSecondFactor(userId, proof, ctx, 'recovery');
    if (outcome.ok) await this.repo.clearFailures(userId);
    else await this.repo.recordFailure(userId, TWO_FACTOR_FAILURES);
    return outcome.ok;
  }

  /**
   * Checks an authenticator code (preferred when both are given) or a backup code for an
   * account whose key was already verified. Records `two_factor_failure` or
   * `backup_code_used`; the caller does the sign-in bookkeeping (lockout) itself.
   */
  async checkSecondFactor(
    userId: string,
    proof: SecondFactorProof,
    ctx: RpcContext,
    call = 'login',
  ): Promise<SecondFactorOutcome> {
    if (proof.code !== undefined || proof.backupCode === undefined) {
      const row = await this.repo.findTotp(userId);
      const valid =
        row !== null &&
        row.enabledAt !== null &&
        (await this.checkCode(userId, row.secretSealed, proof.code ?? ''));
      if (valid) return { ok: true, method: 'totp' };
      await this.events.record('two_factor_failure', userId, ctx, { call, method: 'totp' });
      return { ok: false, error: ErrorCode.INVALID_VERIFICATION_CODE };
    }
    const normalized = normalizeBackupCode(proof.backupCode);
    const spent =
      normalized !== null &&
      (await this.repo.useBackupCode(userId, await this.hashBackupCode(userId, normalized)));
    if (!spent) {
      await this.events.record('two_factor_failure', userId, ctx, { call, method: 'backup_code' });
      return { ok: false, error: ErrorCode.INVALID_BACKUP_CODE };
    }
    const { unused } = await this.repo.backupCodeStats(userId);
    await this.events.record('backup_code_used', userId, ctx, { call, remaining: unused });
    return { ok: true, method: 'backup_code', remainingBackupCodes: unused };
  }

  /** Disable / regenerate: the authKey, or a current code. Wrong ones are 401 and counted. */
  private async assertProof(
    user: UserEntity,
    body: TwoFactorProofBody,
    ctx: RpcContext,
    call: string,
  ): Promise<'auth_key' | 'totp'> {
    await this.assertNotThrottled(user.id);
    if (body.authKey !== undefined) {
      if (await this.hasher.verify(user.authHash, body.authKey)) return 'auth_key';
      await this.recordFailure(user.id, ctx, { call, method: 'auth_key' });
      throw new VaultError(ErrorCode.INVALID_PASSWORD);
    }
    const row = await this.repo.findTotp(user.id);
    if (row?.enabledAt && (await this.checkCode(user.id, row.secretSealed, body.code ?? ''))) return 'totp';
    await this.recordFailure(user.id, ctx, { call, method: 'totp' });
    throw new VaultError(ErrorCode.INVALID_VERIFICATION_CODE);
  }

  /** A valid code whose time step this user has not spent yet; spends it. */
  private async checkCode(userId: string, secretSealed: string, code: string): Promise<boolean> {
    const secret = await this.openSecret(userId, secretSealed);
    const check = await checkTotp(secret, code, Date.now() / 1000);
    if (!check.valid) return false;
    return this.repo.claimTimeStep(userId, check.timeStep, REPLAY_MARK_SECONDS);
  }

  private async assertNotThrottled(userId: string): Promise<void> {
    const failures = await this.repo.failures(userId, TWO_FACTOR_FAILURES.limit);
    if (!failures.allowed) {
      throw new VaultError(ErrorCode.RATE_LIMITED, undefined, { retryAfter: failures.retryAfter });
    }
  }

  private async recordFailure(userId: string, ctx: RpcContext, details: SecurityEventDetails): Promise<void> {
    await this.repo.recordFailure(userId, TWO_FACTOR_FAILURES);
    await this.events.record('two_factor_failure', userId, ctx, details);
  }

  private async requireUser(userId: string): Promise<UserEntity> {
    const user = await this.users.findById(userId);
    if (!user) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    return user;
  }

  /**
   * The server keys: HKDF-SHA256 (via @vault/crypto) of SHA-256(SERVER_SECRET), which
   * condenses the configured secret to the 32 bytes of key material HKDF takes here.
   */
  private serverKeys(): Promise<{ totp: Uint8Array; backup: Buffer }> {
    this.keys ??= (async () => {
      const ikm = new Uint8Array(Buffer.from(sha256Hex(this.config.serverSecret), 'hex'));
      const [totp, backup] = await Promise.all([
        hkdf(ikm, SERVER_KEY_INFO.totpSecret),
        hkdf(ikm, SERVER_KEY_INFO.backupCode),
      ]);
      ikm.fill(0);
      return { totp, backup: Buffer.from(backup) };
    })();
    return this.keys;
  }

  private async sealSecret(userId: string, secret: string): Promise<string> {
    const { totp } = await this.serverKeys();
    return seal(totp, utf8ToBytes(secret), totpSecretAad(userId));
  }

  private async openSecret(userId: string, sealed: string): Promise<string> {
    const { totp } = await this.serverKeys();
    return bytesToUtf8(await open(totp, sealed, totpSecretAad(userId)));
  }

  /**
   * HMAC-SHA256 under a server key, bound to the user. Not Argon2: a backup code has 32
   * random bits, so a slow hash would only make sign-in slow (ten codes to check), while a
   * keyed hash is useless to whoever steals the table without the server secret. Being
   * deterministic, the database finds and spends the matching row in one statement.
   */
  private async hashBackupCode(userId: string, normalized: string): Promise<string> {
    const { backup } = await this.serverKeys();
    return hmacSha256(backup, `${userId}:${normalized}`).toString('hex');
  }
}
