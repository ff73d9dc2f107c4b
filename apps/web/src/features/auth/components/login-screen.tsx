import { FILL_ALL_FIELDS, type AuthResponse } from '@vault/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { TextField } from '../../../components/input';
import { PasswordInput } from '../../../components/password-input';
import { useApiClient } from '../../../lib/api-context';
import { ApiError } from '../../../lib/api-client';
import { useCrypto } from '../../../workers/crypto-context';
import { login, type LoginResult } from '../api/login';
import { loginWithBackupCode } from '../api/login-with-backup-code';
import { loginWithCode } from '../api/login-with-code';
import { prelogin } from '../api/prelogin';
import { verifyEmergency } from '../api/verify-emergency';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { useCountdown } from '../hooks/use-countdown';
import { useSession, useSessionStore } from '../state/session-context';
import { TWO_FACTOR_MESSAGES, isValidCode } from '../utils/two-factor';
import { AuthLayout } from './auth-layout';
import { DEFAULT_LOCKOUT_SECONDS, LockoutBanner } from './lockout-banner';
import { SecondFactorField, SecondFactorToggle } from './second-factor-field';

export const LOGIN_MESSAGES = {
  failed: 'Login failed',
  emergency: 'Unusual activity detected. Please verify your identity with additional information.',
  backupWarningDelayMs: 3000,
} as const;

type Step = 'credentials' | 'code' | 'emergency';

/** A sign-in waiting for its second step: the authKey and the worker's handle of the wrapping key. */
interface Pending {
  identifier: string;
  authKey: string;
  handle: string;
}

/**
 * The sign-in screen (spec sections 2, 4, 5, 8): identifier + password, then prelogin, the
 * authKey derived in the worker, and the sign-in call; the 2FA code step, the emergency step
 * (418), the lockout banner with its countdown (423), and the vault key opened on success.
 */
export function LoginScreen() {
  const api = useApiClient();
  const crypto = useCrypto();
  const session = useSessionStore();
  const { notice } = useSession();
  const { openKey, finish } = useCompleteSignIn();
  const lockout = useCountdown();

  const [step, setStep] = useState<Step>('credentials');
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [stayUnlocked, setStayUnlocked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [useBackup, setUseBackup] = useState(false);
  const [code, setCode] = useState('');
  const [backupCode, setBackupCode] = useState('');
  const [emergency, setEmergency] = useState({ username: '', phoneNumber: '' });
  const pendingRef = useRef<Pending | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    pendingRef.current = pending;
  }, [pending]);
  // An abandoned sign-in's wrapping key is dropped from the worker.
  useEffect(
    () => () => {
      if (pendingRef.current) crypto.discard(pendingRef.current.handle);
    },
    [crypto],
  );

  const locked = lockout.active;

  const fail = (e: unknown, fallback: string) => {
    if (e instanceof ApiError && e.status === 423) {
      setError(null);
      lockout.start(e.retryAfter ?? DEFAULT_LOCKOUT_SECONDS);
      return;
    }
    if (e instanceof ApiError && e.status === 418 && e.body?.['requiresEmergencyVerification'] === true) {
      setError(null);
      setInfo(e.message || LOGIN_MESSAGES.emergency);
      setStep('emergency');
      return;
    }
    setError(e instanceof Error && e.message ? e.message : fallback);
  };

  /** Derives the authKey in the worker from the prelogin answer; the wrapping key stays there. */
  const derive = async (id: string): Promise<Pending> => {
    await session.settled();
    const material = await prelogin(api, id);
    const prepared = await crypto.prepareLogin(password, material);
    return { identifier: id, authKey: prepared.authKey, handle: prepared.handle };
  };

  const complete = async (result: LoginResult, p: Pending, warningDelay = false) => {
    if (result.kind === 'requires2FA') {
      setPending(p);
      setStep('code');
      setError(null);
      // After a passed emergency step its "Unusual activity" notice no longer applies.
      setInfo(null);
      return false;
    }
    const answer: AuthResponse = result.session;
    const vaultKey = await openKey(p.handle, answer);
    setPending(null);
    if (warningDelay && answer.warningMessage) {
      setInfo(answer.warningMessage);
      await new Promise((resolve) => setTimeout(resolve, LOGIN_MESSAGES.backupWarningDelayMs));
    }
    await finish(answer, vaultKey, stayUnlocked);
    return true;
  };

  const onCredentials = async (event: FormEvent) => {
    event.preventDefault();
    if (locked || busy) return;
    session.clearNotice();
    setInfo(null);
    const id = identifier.trim();
    if (!id || !password) {
      setError(FILL_ALL_FIELDS);
      return;
    }
    setError(null);
    setBusy(true);
    let p: Pending | null = null;
    let keep = false;
    try {
      p = await derive(id);
      keep = !(await complete(await login(api, { identifier: id, authKey: p.authKey }), p));
    } catch (e) {
      fail(e, LOGIN_MESSAGES.failed);
    } finally {
      if (p && !keep) crypto.discard(p.handle);
      setBusy(false);
    }
  };

  const onCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!pending || busy || locked) return;
    if (useBackup ? !backupCode : !isValidCode(code)) {
      setError(useBackup ? TWO_FACTOR_MESSAGES.backupCode : TWO_FACTOR_MESSAGES.code);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const result = useBackup
        ? await loginWithBackupCode(api, {
            identifier: pending.identifier,
            authKey: pending.authKey,
            backupCode,
          })
        : await loginWithCode(api, { identifier: pending.identifier, authKey: pending.authKey, code });
      await complete(result, pending, useBackup);
    } catch (e) {
      fail(e, useBackup ? TWO_FACTOR_MESSAGES.invalidBackupCode : TWO_FACTOR_MESSAGES.invalidCode);
    } finally {
      setBusy(false);
    }
  };

  const onEmergency = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || locked) return;
    const id = identifier.trim();
    const username = emergency.username.trim();
    const phoneNumber = emergency.phoneNumber.trim();
    if (!id || !username || !phoneNumber || !password) {
      setError(TWO_FACTOR_MESSAGES.emergencyFields);
      return;
    }
    setError(null);
    setBusy(true);
    let p: Pending | null = null;
    let keep = false;
    try {
      p = await derive(id);
      const result = await verifyEmergency(api, {
        identifier: id,
        username,
        phoneNumber,
        authKey: p.authKey,
      });
      keep = !(await complete(result, p));
    } catch (e) {
      fail(e, TWO_FACTOR_MESSAGES.emergencyFailed);
    } finally {
      if (p && !keep) crypto.discard(p.handle);
      setBusy(false);
    }
  };

  const backToCredentials = () => {
    if (pending) crypto.discard(pending.handle);
    setPending(null);
    setStep('credentials');
    setCode('');
    setBackupCode('');
    setUseBackup(false);
    setPassword('');
    setError(null);
    setInfo(null);
  };

  useEffect(() => {
    if (step !== 'credentials') headingRef.current?.focus();
  }, [step]);

  const banners = (
    <>
      {locked ? <LockoutBanner remainingSeconds={lockout.remainingSeconds} /> : null}
      {notice && step === 'credentials' && !locked ? (
        <Banner tone="warning" role="status">
          {notice}
        </Banner>
      ) : null}
      {info ? (
        <Banner tone={step === 'emergency' ? 'warning' : 'info'} role="status">
          {info}
        </Banner>
      ) : null}
      {error ? <Banner tone="danger">{error}</Banner> : null}
    </>
  );

  if (step === 'code') {
    return (
      <AuthLayout title="Two-step verification">
        <h2 className="visually-hidden" tabIndex={-1} ref={headingRef}>
          Two-step verification
        </h2>
        <p className="auth__lead">
          {useBackup
            ? 'Enter one of the backup codes you saved when you turned on two-step verification.'
            : 'Enter the 6-digit code from your authenticator app.'}
        </p>
        <form className="form" onSubmit={onCode} noValidate>
          {banners}
          <SecondFactorField
            useBackup={useBackup}
            code={code}
            backupCode={backupCode}
            onCode={setCode}
            onBackupCode={setBackupCode}
            disabled={busy || locked}
          />
          <Button type="submit" block loading={busy} loadingLabel="Verifying..." disabled={locked}>
            Verify
          </Button>
          <div className="form__links">
            <SecondFactorToggle
              useBackup={useBackup}
              onToggle={() => {
                setUseBackup((b) => !b);
                setError(null);
              }}
              disabled={busy}
            />
            <button type="button" className="link-btn" onClick={backToCredentials} disabled={busy}>
              Back to sign in
            </button>
          </div>
        </form>
      </AuthLayout>
    );
  }

  if (step === 'emergency') {
    return (
      <AuthLayout title="Verify it's you">
        <h2 className="visually-hidden" tabIndex={-1} ref={headingRef}>
          Emergency verification
        </h2>
        <form className="form" onSubmit={onEmergency} noValidate>
          {banners}
          <TextField
            label="Username"
            name="username"
            autoComplete="username"
            value={emergency.username}
            onChange={(e) => setEmergency((s) => ({ ...s, username: e.target.value }))}
            disabled={busy || locked}
          />
          <TextField
            label="Phone number"
            name="phoneNumber"
            type="tel"
            autoComplete="tel"
            value={emergency.phoneNumber}
            onChange={(e) => setEmergency((s) => ({ ...s, phoneNumber: e.target.value }))}
            disabled={busy || locked}
          />
          <TextField
            label="Username, email or phone"
            name="identifier"
            autoComplete="username"
            value={identifier}
            onChange={(e) => setIdentifier(e.target.value)}
            disabled={busy || locked}
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy || locked}
          />
          <Button type="submit" block loading={busy} loadingLabel="Verifying..." disabled={locked}>
            Verify and sign in
          </Button>
          <div className="form__links">
            <button type="button" className="link-btn" onClick={backToCredentials} disabled={busy}>
              Back to sign in
            </button>
          </div>
        </form>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Sign in to your vault"
      subtitle="Your notes and files are decrypted only on this device."
      footer={
        <p>
          New to Vault? <Link to="/register">Create an account</Link>
        </p>
      }
    >
      <form className="form" onSubmit={onCredentials} noValidate aria-describedby={undefined}>
        {banners}
        <TextField
          label="Username, email or phone"
          name="identifier"
          autoComplete="username"
          autoCapitalize="off"
          spellCheck={false}
          value={identifier}
          onChange={(e) => setIdentifier(e.target.value)}
          disabled={busy || locked}
          autoFocus
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          disabled={busy || locked}
        />
        <div className="form__row">
          <Checkbox
            label="Stay unlocked on this device"
            description="Keeps the vault key in this browser so a reload doesn't ask for your password. Use only on a device you trust."
            checked={stayUnlocked}
            onChange={(e) => setStayUnlocked(e.target.checked)}
            disabled={busy || locked}
          />
        </div>
        <Button
          type="submit"
          block
          size="lg"
          loading={busy}
          loadingLabel="Unlocking your vault..."
          disabled={locked}
        >
          Sign in
        </Button>
        <div className="form__links form__links--center">
          <Link to="/recovery">Forgot your password?</Link>
        </div>
      </form>
    </AuthLayout>
  );
}
