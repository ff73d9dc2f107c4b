import type { AuthResponse } from '@vault/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { TextField } from '../../../components/input';
import { PasswordInput } from '../../../components/password-input';
import { useApiClient } from '../../../lib/api-context';
import { ApiError } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { cryptoErrorCode, type NewAccountMaterial } from '../../../workers/crypto-service';
import { AuthLayout } from '../../auth/components/auth-layout';
import { SecondFactorField, SecondFactorToggle } from '../../auth/components/second-factor-field';
import { PasswordChecklist } from '../../auth/components/password-checklist';
import { useSessionStore } from '../../auth/state/session-context';
import { passwordChecks } from '../../auth/utils/signup-validation';
import { CODE_LENGTH, TWO_FACTOR_MESSAGES, isValidCode, sanitizeCode } from '../../auth/utils/two-factor';
import {
  getRecoveryQuestions,
  resetWithRecovery,
  sendRecoveryCode,
  verifyRecoveryAnswers,
  verifyRecoveryCode,
  verifyRecoveryKey,
  type RecoveryQuestions,
} from '../api/recovery';
import { useRecoveryCrypto } from '../state/use-recovery-crypto';
import { RECOVERY_TEXT, RECOVERY_WINDOW_MINUTES } from '../utils/recovery-messages';
import { validateNewPassword } from '../utils/new-password';
import { looksLikeRecoveryKey } from '../utils/recovery-key-text';
import { clearRecoveryBypass, storeRecoveryBypass } from '../utils/recovery-session';

export type RecoveryStep =
  'choose' | 'verify-email' | 'verify-questions' | 'verify-key' | 'new-password' | 'success';

/** What a verification gave: the bypass token and, on the recovery-key path, the key to the old vault. */
interface Verified {
  bypassToken: string;
  message: string;
  /** Recovery-key path only: the worker's handle of the typed key and the vault key it wraps. */
  recovery?: { handle: string; recoveryWrappedVaultKey: string };
}

interface Done {
  answer: AuthResponse;
  vaultKey: CryptoKey;
  keptVaultKey: boolean;
}

const TITLES: Record<RecoveryStep, string> = {
  choose: 'Recover your account',
  'verify-email': 'Check your email',
  'verify-questions': 'Answer your security questions',
  'verify-key': 'Enter your recovery key',
  'new-password': 'Set a new password',
  success: 'Account recovered',
};

const isStatus = (e: unknown, ...statuses: number[]) => e instanceof ApiError && statuses.includes(e.status);

/** A rate limit says so (and when to retry); any other failure gets the spec's text (section 8). */
function failure(e: unknown, specText: string): string {
  if (e instanceof ApiError && e.status === 429 && e.message) return e.message;
  return specText;
}

/**
 * /recovery (spec "Recovery screen", section 4 "Recovery flow", sections 5 and 8): the e-mail, then an
 * e-mail code, the security questions or the recovery key (crypto-protocol "Recovery"); then a new
 * password, set with the bypass token the verification returned (POST /auth/recovery/reset), then the
 * success step. Only the recovery key brings the old vault key back; the other two reset access and
 * make a new vault key, which the new-password step says before the user confirms.
 */
export function RecoveryScreen() {
  const api = useApiClient();
  const crypto = useRecoveryCrypto();
  const session = useSessionStore();
  const navigate = useNavigate();

  const [step, setStep] = useState<RecoveryStep>('choose');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState('');
  const [questions, setQuestions] = useState<RecoveryQuestions | null>(null);
  const [answers, setAnswers] = useState<string[]>([]);
  const [keyText, setKeyText] = useState('');
  const [verified, setVerified] = useState<Verified | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [understood, setUnderstood] = useState(false);
  const [material, setMaterial] = useState<NewAccountMaterial | null>(null);
  const [needsCode, setNeedsCode] = useState(false);
  const [useBackup, setUseBackup] = useState(false);
  const [totp, setTotp] = useState('');
  const [backupCode, setBackupCode] = useState('');
  const [done, setDone] = useState<Done | null>(null);

  // Each step's first field takes the focus (autoFocus), so keyboard and screen-reader users follow along.
  useDocumentTitle('Account recovery');

  const trimmedEmail = email.trim();

  const reset = () => {
    if (verified?.recovery) crypto?.discard(verified.recovery.handle);
    clearRecoveryBypass();
    setStep('choose');
    setError(null);
    setInfo(null);
    setCode('');
    setQuestions(null);
    setAnswers([]);
    setKeyText('');
    setVerified(null);
    setPassword('');
    setConfirm('');
    setUnderstood(false);
    setMaterial(null);
    setNeedsCode(false);
    setUseBackup(false);
    setTotp('');
    setBackupCode('');
  };

  const requireEmail = (): boolean => {
    if (!trimmedEmail) {
      setError(RECOVERY_TEXT.emailRequired);
      return false;
    }
    return true;
  };

  /** A verification succeeded: keep the token for this tab (spec) and go on to the new password. */
  const onVerified = (v: Verified) => {
    storeRecoveryBypass(v.bypassToken, trimmedEmail, Date.now() + RECOVERY_WINDOW_MINUTES * 60_000);
    setVerified(v);
    setError(null);
    setInfo(null);
    setStep('new-password');
  };

  const chooseEmail = async () => {
    if (busy || !requireEmail()) return;
    setError(null);
    setBusy(true);
    try {
      setInfo(await sendRecoveryCode(api, trimmedEmail));
      setStep('verify-email');
    } catch (e) {
      setError(failure(e, RECOVERY_TEXT.sendFailed));
    } finally {
      setBusy(false);
    }
  };

  const chooseQuestions = async () => {
    if (busy || !requireEmail()) return;
    setError(null);
    setInfo(null);
    setBusy(true);
    try {
      const found = await getRecoveryQuestions(api, trimmedEmail);
      if (found.questions.length === 0) {
        setError(RECOVERY_TEXT.noQuestions);
        return;
      }
      setQuestions(found);
      setAnswers(found.questions.map(() => ''));
      setStep('verify-questions');
    } catch (e) {
      setError(isStatus(e, 404) ? RECOVERY_TEXT.noQuestions : failure(e, RECOVERY_TEXT.questionsFailed));
    } finally {
      setBusy(false);
    }
  };

  const chooseKey = () => {
    if (busy || !requireEmail()) return;
    setError(null);
    setInfo(null);
    setStep('verify-key');
  };

  const onCode = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!/^\d{6}$/.test(code)) {
      setError(RECOVERY_TEXT.code);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      onVerified(await verifyRecoveryCode(api, { email: trimmedEmail, code }));
    } catch (e) {
      setError(failure(e, RECOVERY_TEXT.invalidCode));
    } finally {
      setBusy(false);
    }
  };

  const resendCode = async () => {
    if (busy) return;
    setError(null);
    setBusy(true);
    try {
      setInfo(await sendRecoveryCode(api, trimmedEmail));
    } catch (e) {
      setError(failure(e, RECOVERY_TEXT.sendFailed));
    } finally {
      setBusy(false);
    }
  };

  const onAnswers = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !questions || !crypto) return;
    if (answers.some((a) => a.trim() === '')) {
      setError(RECOVERY_TEXT.answersRequired);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      // The answers never leave the device: only answersAuth, derived with the account's KDF.
      const answersAuth = await crypto.deriveRecoveryAnswersAuth(
        answers,
        questions.questionsSalt,
        questions.kdfParams,
      );
      onVerified(await verifyRecoveryAnswers(api, { email: trimmedEmail, answersAuth }));
    } catch (e) {
      setError(
        e instanceof ApiError ? failure(e, RECOVERY_TEXT.incorrectAnswers) : RECOVERY_TEXT.incorrectAnswers,
      );
    } finally {
      setBusy(false);
    }
  };

  const onKey = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !crypto) return;
    if (!looksLikeRecoveryKey(keyText)) {
      setError(RECOVERY_TEXT.keyFormat);
      return;
    }
    setError(null);
    setBusy(true);
    let handle: string | null = null;
    try {
      const prepared = await crypto.prepareRecoveryKey(keyText);
      handle = prepared.handle;
      const answer = await verifyRecoveryKey(api, {
        email: trimmedEmail,
        recoveryAuth: prepared.recoveryAuth,
      });
      onVerified({
        bypassToken: answer.bypassToken,
        message: answer.message,
        recovery: { handle, recoveryWrappedVaultKey: answer.recoveryWrappedVaultKey },
      });
      handle = null;
    } catch (e) {
      setError(
        e instanceof ApiError
          ? failure(e, RECOVERY_TEXT.invalidKey)
          : e instanceof Error && e.message
            ? RECOVERY_TEXT.keyFormat
            : RECOVERY_TEXT.invalidKey,
      );
    } finally {
      if (handle) crypto.discard(handle);
      setBusy(false);
    }
  };

  const onNewPassword = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !verified || !crypto) return;
    const keeps = Boolean(verified.recovery);
    if (!material) {
      // The sign-up rules, through the sign-up validator (the identity fields are not asked here).
      const problem = validateNewPassword(password, confirm);
      if (problem) {
        setError(problem);
        return;
      }
      if (!keeps && !understood) {
        setError(RECOVERY_TEXT.confirmNewKey);
        return;
      }
    }
    if (needsCode && (useBackup ? !backupCode : !isValidCode(totp))) {
      setError(useBackup ? TWO_FACTOR_MESSAGES.backupCode : TWO_FACTOR_MESSAGES.code);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      // Made once: a 2FA retry sends the same material (one Argon2id run, one recovery key opening).
      let m = material;
      if (!m) {
        m = await crypto.createResetMaterial(password, verified.recovery);
        setMaterial(m);
      }
      const answer = await resetWithRecovery(api, {
        bypassToken: verified.bypassToken,
        authKey: m.authKey,
        salt: m.salt,
        kdfParams: m.kdfParams,
        wrappedVaultKey: m.wrappedVaultKey,
        newVaultKey: !keeps,
        ...(needsCode ? (useBackup ? { backupCode } : { code: totp }) : {}),
      });
      setDone({ answer, vaultKey: m.vaultKey, keptVaultKey: keeps });
      setPassword('');
      setConfirm('');
      setStep('success');
    } catch (e) {
      if (isStatus(e, 401) && e instanceof ApiError && /verification code|backup code/i.test(e.message)) {
        // The account has 2FA on (ASVS 6.4.3): the reset also needs a current code.
        if (needsCode) setError(e.message);
        else setError(null);
        setNeedsCode(true);
        setInfo('Your account has two-step verification. Enter a code from your authenticator app.');
      } else if (isStatus(e, 401)) {
        setError(RECOVERY_TEXT.expired);
      } else if (e instanceof ApiError || cryptoErrorCode(e) === 'BAD_INPUT') {
        // The server's text, or the worker's "start again" when the typed key has expired there.
        setError(e instanceof Error && e.message ? e.message : RECOVERY_TEXT.resetFailed);
      } else {
        setError(RECOVERY_TEXT.resetFailed);
      }
    } finally {
      setBusy(false);
    }
  };

  const finish = async (to: string) => {
    if (!done) return;
    clearRecoveryBypass();
    await session.signIn({
      user: done.answer.user,
      access: done.answer.access,
      vaultKey: done.vaultKey,
      stayUnlocked: false,
    });
    navigate(to, { replace: true });
  };

  const banners = (
    <>
      {info ? <Banner tone="info">{info}</Banner> : null}
      {error ? <Banner tone="danger">{error}</Banner> : null}
    </>
  );

  const back = (
    <button type="button" className="link-btn" onClick={reset} disabled={busy}>
      Try another way
    </button>
  );

  let body: ReactNode;
  if (step === 'choose') {
    body = (
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void chooseEmail();
        }}
        noValidate
      >
        {banners}
        <p className="auth__lead">
          Enter the email address of your account, then choose how to prove it is yours.
        </p>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          disabled={busy}
          autoFocus
        />
        <Button type="submit" block loading={busy} loadingLabel="Please wait...">
          Email Recovery Code
        </Button>
        <Button variant="secondary" block onClick={() => void chooseQuestions()} disabled={busy}>
          Security Questions
        </Button>
        <Button variant="secondary" block onClick={chooseKey} disabled={busy}>
          Recovery Key
        </Button>
        <p className="field__hint">
          Only your recovery key can bring back your notes and files as they are. An email code or your
          security questions let you into your account again with a new vault key.
        </p>
      </form>
    );
  } else if (step === 'verify-email') {
    body = (
      <form className="form" onSubmit={onCode} noValidate>
        {banners}
        <p className="auth__lead">Enter the 6-digit code from the email sent to {trimmedEmail}.</p>
        <TextField
          label="Recovery code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="123456"
          maxLength={CODE_LENGTH}
          value={code}
          onChange={(e) => setCode(sanitizeCode(e.target.value))}
          disabled={busy}
          autoFocus
          className="field--code"
        />
        <Button type="submit" block loading={busy} loadingLabel="Verifying...">
          Verify code
        </Button>
        <div className="form__links">
          <button type="button" className="link-btn" onClick={() => void resendCode()} disabled={busy}>
            Send a new code
          </button>
          {back}
        </div>
      </form>
    );
  } else if (step === 'verify-questions' && questions) {
    body = (
      <form className="form" onSubmit={onAnswers} noValidate>
        {banners}
        {questions.questions.map((q, i) => (
          <TextField
            key={q + String(i)}
            label={q}
            name={`answer-${i}`}
            autoComplete="off"
            value={answers[i] ?? ''}
            onChange={(e) => {
              const value = e.target.value;
              setAnswers((all) => all.map((a, j) => (j === i ? value : a)));
            }}
            disabled={busy}
            autoFocus={i === 0}
          />
        ))}
        <Button type="submit" block loading={busy} loadingLabel="Checking answers...">
          Verify answers
        </Button>
        <div className="form__links">{back}</div>
      </form>
    );
  } else if (step === 'verify-key') {
    body = (
      <form className="form" onSubmit={onKey} noValidate>
        {banners}
        <p className="auth__lead">
          Paste the recovery key from the recovery kit you saved when you created your account or in Settings.
          It brings back your notes and files as they are.
        </p>
        <TextField
          label="Recovery key"
          name="recoveryKey"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="XXXX-XXXX-XXXX-..."
          value={keyText}
          onChange={(e) => setKeyText(e.target.value)}
          disabled={busy}
          autoFocus
        />
        <Button type="submit" block loading={busy} loadingLabel="Checking key...">
          Verify recovery key
        </Button>
        <div className="form__links">{back}</div>
      </form>
    );
  } else if (step === 'new-password' && verified) {
    const keeps = Boolean(verified.recovery);
    body = (
      <form className="form" onSubmit={onNewPassword} noValidate>
        <Banner tone="success" role="status">
          {verified.message || RECOVERY_TEXT.verified}
        </Banner>
        {keeps ? (
          <Banner tone="info" title="Your vault comes back as it is">
            Your recovery key opened your vault key. Choose a new password: your notes and files stay
            readable.
          </Banner>
        ) : (
          <Banner tone="warning" title="A new vault key will be created">
            Without your recovery key, nobody can open your current vault key: it is sealed with your old
            password. Setting a new password creates a new, empty vault key. Your existing notes and files
            stay stored but locked until you enter your old password, which then unlocks them and moves them
            to the new key. If you never remember it, they cannot be recovered.
          </Banner>
        )}
        {needsCode ? null : banners}
        <PasswordInput
          label="New password"
          name="newPassword"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={busy || material !== null}
          autoFocus
        />
        <PasswordInput
          label="Confirm new password"
          name="confirmNewPassword"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          disabled={busy || material !== null}
        />
        <PasswordChecklist checks={passwordChecks(password, confirm)} />
        {keeps ? null : (
          <Checkbox
            label="I understand that my existing notes and files stay locked until I enter my old password."
            checked={understood}
            onChange={(e) => setUnderstood(e.target.checked)}
            disabled={busy || material !== null}
          />
        )}
        {needsCode ? (
          <>
            {banners}
            <SecondFactorField
              useBackup={useBackup}
              code={totp}
              backupCode={backupCode}
              onCode={setTotp}
              onBackupCode={setBackupCode}
              disabled={busy}
              codeName="totp"
            />
            <SecondFactorToggle
              useBackup={useBackup}
              onToggle={() => {
                setUseBackup((b) => !b);
                setError(null);
              }}
              disabled={busy}
            />
          </>
        ) : null}
        <Button type="submit" block loading={busy} loadingLabel="Setting your password...">
          {keeps ? 'Set new password' : 'Set new password and create a new vault key'}
        </Button>
        <div className="form__links">{back}</div>
      </form>
    );
  } else if (step === 'success' && done) {
    body = (
      <div className="form">
        <Banner tone="success" title="Recovery successful">
          Your new password is set and your vault is unlocked on this device. For the next{' '}
          {RECOVERY_WINDOW_MINUTES} minutes, review your security settings: turn on two-step verification, and
          make a new recovery key.
        </Banner>
        {done.keptVaultKey ? null : (
          <p className="auth__lead">
            Notes and files from before the reset show as locked in your vault until you enter your old
            password there.
          </p>
        )}
        <Button block onClick={() => void finish('/settings?tab=security&recovery=true')}>
          Go to Security Settings
        </Button>
        <Button variant="secondary" block onClick={() => void finish('/vault')}>
          Continue to Vault
        </Button>
      </div>
    );
  } else {
    body = null;
  }

  return (
    <AuthLayout
      title={TITLES[step]}
      footer={
        step === 'success' ? undefined : (
          <p>
            Remembered your password? <Link to="/login">Back to sign in</Link>
          </p>
        )
      }
    >
      {crypto ? body : <Banner tone="danger">This browser cannot run account recovery.</Banner>}
    </AuthLayout>
  );
}
