import { DEFAULT_LOCKOUT_SECONDS, LOCKOUT_TITLE } from '../../../lib/lockout';
import { ADMIN_MESSAGES, ERROR_INFO, ErrorCode } from '@vault/contracts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isApiError } from '../../../lib/api-client';
import { useQueryCache } from '../../../lib/query';
import { deriveAuthKey } from '../../../lib/session/derive-auth-key';
import { CODE_LENGTH, sanitizeCode } from '../../../lib/two-factor';
import { useCrypto } from '../../../workers/crypto-context';
import { adminStatsQuery, signInAdmin, signOutAdmin, useAdminApi } from '../api/admin-api';
import { adminErrorText } from '../components/admin-load-error';
import type { AdminLoginState } from '../state/admin-session-provider';

export const ADMIN_LOGIN_TEXT = {
  required: 'Enter your e-mail or username and your password',
  adminRequired: ERROR_INFO.ADMIN_REQUIRED.message,
  twoFactorRequired: ERROR_INFO.ADMIN_2FA_REQUIRED.message,
  lockedTitle: LOCKOUT_TITLE,
} as const;

export type AdminLoginError =
  | { kind: 'message'; message: string; detail?: string }
  /** An admin without 2FA: the message and the way to turn it on. */
  | { kind: '2fa-required'; message: string };

/** What a failed admin sign-in says (spec section 8 "Admin login"); null for the lockout. */
export function adminLoginErrorFor(error: unknown): AdminLoginError | null {
  if (!isApiError(error) || error.status === 0 || error.status === 401) {
    return { kind: 'message', message: ADMIN_MESSAGES.loginFailed };
  }
  if (error.status === 423) return null;
  if (error.status === 403 && error.code === ErrorCode.ADMIN_2FA_REQUIRED) {
    return { kind: '2fa-required', message: ADMIN_LOGIN_TEXT.twoFactorRequired };
  }
  if (error.status === 403) return { kind: 'message', message: ADMIN_LOGIN_TEXT.adminRequired };
  if (error.status === 429)
    return { kind: 'message', message: ADMIN_MESSAGES.adminLoginFailed, detail: error.message };
  return { kind: 'message', message: ADMIN_MESSAGES.adminLoginFailed };
}

/**
 * A failed stats check after the sign-in: only a 403 means "not an admin"; a 401 means the new
 * session did not hold, and a 5xx or a network failure is the server's, not a verdict on the account.
 */
export function statsFailure(error: unknown): AdminLoginError {
  if (isApiError(error) && error.status === 403) {
    return { kind: 'message', message: ADMIN_LOGIN_TEXT.adminRequired };
  }
  if (isApiError(error) && error.status === 401)
    return { kind: 'message', message: ADMIN_MESSAGES.loginFailed };
  return { kind: 'message', message: ADMIN_MESSAGES.adminLoginFailed, detail: adminErrorText(error) };
}

/** Spec section 9: the default lockout when the answer names no retry time. */

/**
 * The admin sign-in: the password becomes `authKey` on this device (prelogin + KDF in the crypto
 * worker, as the vault sign-in), then POST /api/admin/session; a requires2FA answer reveals the
 * code field (the authKey is kept in memory for that step only); signed in, the stats call every
 * admin must pass; then /admin.
 */
export function useAdminLogin() {
  const api = useAdminApi();
  const crypto = useCrypto();
  const cache = useQueryCache();
  const navigate = useNavigate();
  const notice = (useLocation().state as AdminLoginState | null)?.adminNotice ?? null;
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AdminLoginError | null>(null);
  const [lockedUntil, setLockedUntil] = useState<number | null>(null);
  const authKey = useRef<string | null>(null);

  useEffect(() => {
    if (lockedUntil === null) return;
    const id = setTimeout(() => setLockedUntil(null), Math.max(0, lockedUntil - Date.now()));
    return () => clearTimeout(id);
  }, [lockedUntil]);

  const editCredentials = (set: (v: string) => void) => (value: string) => {
    // Another identifier or password needs its own key, and its own 2FA step.
    authKey.current = null;
    setNeedsCode(false);
    setCode('');
    set(value);
  };

  /** The stats call every admin must pass: null when passed, else what to say. */
  const statsCheckError = async (): Promise<AdminLoginError | null> => {
    await cache.fetch(adminStatsQuery.queryKey, () => adminStatsQuery.get(api), true);
    const state = cache.getState(adminStatsQuery.queryKey);
    if (state.status === 'success') return null;
    // The console does not open: leave no admin session behind.
    await signOutAdmin(api).catch(() => undefined);
    cache.clear();
    return statsFailure(state.error);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || lockedUntil !== null) return;
    const id = identifier.trim();
    if (!id || !password) return setError({ kind: 'message', message: ADMIN_LOGIN_TEXT.required });
    if (needsCode && code.length !== CODE_LENGTH) {
      return setError({ kind: 'message', message: ADMIN_MESSAGES.enterCode });
    }
    setBusy(true);
    setError(null);
    try {
      authKey.current ??= await deriveAuthKey(api, crypto, id, password);
      const body = { identifier: id, authKey: authKey.current, ...(needsCode ? { totpCode: code } : {}) };
      const result = await signInAdmin(api, body);
      if (result.kind === 'requires2FA') {
        setNeedsCode(true);
        return;
      }
      authKey.current = null;
      const failed = await statsCheckError();
      if (failed) return setError(failed);
      void navigate('/admin', { replace: true });
    } catch (failure) {
      setCode('');
      const shown = adminLoginErrorFor(failure);
      if (shown) setError(shown);
      else {
        const seconds = (isApiError(failure) && failure.retryAfter) || DEFAULT_LOCKOUT_SECONDS;
        setLockedUntil(Date.now() + seconds * 1000);
      }
    } finally {
      setBusy(false);
    }
  };

  return {
    identifier,
    password,
    code,
    needsCode,
    busy,
    error,
    lockedUntil,
    notice,
    setIdentifier: editCredentials(setIdentifier),
    setPassword: editCredentials(setPassword),
    setCode: (value: string) => setCode(sanitizeCode(value)),
    submit,
  };
}

export type AdminLoginFlow = ReturnType<typeof useAdminLogin>;
