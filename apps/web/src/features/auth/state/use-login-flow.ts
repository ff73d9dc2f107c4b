import { FILL_ALL_FIELDS, type AuthResponse } from '@vault/contracts';
import { useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { prelogin } from '../../../lib/session/prelogin';
import { useSession, useSessionStore } from '../../../lib/session/session-context';
import { TWO_FACTOR_MESSAGES, isValidCode } from '../../../lib/two-factor';
import { useCrypto } from '../../../workers/crypto-context';
import { login, type LoginResult } from '../api/login';
import { loginWithBackupCode } from '../api/login-with-backup-code';
import { loginWithCode } from '../api/login-with-code';
import { verifyEmergency } from '../api/verify-emergency';
import { DEFAULT_LOCKOUT_SECONDS } from '../components/lockout-banner';
import { useCompleteSignIn } from '../hooks/use-complete-sign-in';
import { useCountdown } from '../hooks/use-countdown';

export const LOGIN_MESSAGES = {
  failed: 'Login failed',
  emergency: 'Unusual activity detected. Please verify your identity with additional information.',
  backupWarningDelayMs: 3000,
} as const;

export type LoginStep = 'credentials' | 'code' | 'emergency';

/** A sign-in waiting for its second step: the authKey and the worker's handle of the wrapping key. */
interface Pending {
  identifier: string;
  authKey: string;
  handle: string;
}

export interface LoginState {
  step: LoginStep;
  identifier: string;
  password: string;
  stayUnlocked: boolean;
  error: string | null;
  info: string | null;
  busy: boolean;
  pending: Pending | null;
  useBackup: boolean;
  code: string;
  backupCode: string;
  emergency: { username: string; phoneNumber: string };
}

/** The fields the steps edit as the user types. */
export type LoginField = 'identifier' | 'password' | 'code' | 'backupCode';

type Action =
  /** Field edits, progress and outcomes: the fields given. */
  | { type: 'set'; patch: Partial<LoginState> }
  | { type: 'emergency-field'; field: 'username' | 'phoneNumber'; value: string }
  | { type: 'toggle-backup' }
  /** 'Back to sign in': the second step forgotten, the identifier kept, the password asked again. */
  | { type: 'back' };

const INITIAL: LoginState = {
  step: 'credentials',
  identifier: '',
  password: '',
  stayUnlocked: false,
  error: null,
  info: null,
  busy: false,
  pending: null,
  useBackup: false,
  code: '',
  backupCode: '',
  emergency: { username: '', phoneNumber: '' },
};

function reduce(state: LoginState, action: Action): LoginState {
  switch (action.type) {
    case 'set':
      return { ...state, ...action.patch };
    case 'emergency-field':
      return { ...state, emergency: { ...state.emergency, [action.field]: action.value } };
    case 'toggle-backup':
      return { ...state, useBackup: !state.useBackup, error: null };
    case 'back':
      return {
        ...state,
        pending: null,
        step: 'credentials',
        code: '',
        backupCode: '',
        useBackup: false,
        password: '',
        error: null,
        info: null,
      };
  }
}

/**
 * The sign-in flow (spec sections 2, 4, 5, 8): identifier + password, then prelogin, the authKey
 * derived in the worker, and the sign-in call; the 2FA code step, the emergency step (418), the
 * lockout with its countdown (423), and the vault key opened on success. The state is one reducer;
 * the steps' components (components/login-steps) render it and call these actions.
 */
export function useLoginFlow() {
  const api = useApiClient();
  const crypto = useCrypto();
  const session = useSessionStore();
  const { notice } = useSession();
  const { openKey, finish } = useCompleteSignIn();
  const lockout = useCountdown();
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const set = (patch: Partial<LoginState>) => dispatch({ type: 'set', patch });
  const { identifier, password, stayUnlocked, busy, pending, useBackup, code, backupCode } = state;
  const pendingRef = useRef<Pending | null>(null);

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
  const [lockedByAdmin, setLockedByAdmin] = useState(false);

  const fail = (e: unknown, fallback: string) => {
    if (e instanceof ApiError && e.status === 423) {
      set({ error: null });
      setLockedByAdmin(e.body?.['lockedBy'] === 'admin');
      lockout.start(e.retryAfter ?? DEFAULT_LOCKOUT_SECONDS);
      return;
    }
    if (e instanceof ApiError && e.status === 418 && e.body?.['requiresEmergencyVerification'] === true) {
      set({ error: null, info: e.message || LOGIN_MESSAGES.emergency, step: 'emergency' });
      return;
    }
    set({ error: e instanceof Error && e.message ? e.message : fallback });
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
      // After a passed emergency step its "Unusual activity" notice no longer applies.
      set({ pending: p, step: 'code', error: null, info: null });
      return false;
    }
    const answer: AuthResponse = result.session;
    const vaultKey = await openKey(p.handle, answer);
    set({ pending: null });
    if (warningDelay && answer.warningMessage) {
      set({ info: answer.warningMessage });
      await new Promise((resolve) => setTimeout(resolve, LOGIN_MESSAGES.backupWarningDelayMs));
    }
    await finish(answer, vaultKey, stayUnlocked);
    return true;
  };

  /**
   * A first step (credentials or emergency): derives the keys for `id`, sends `request` and
   * completes the sign-in. The worker's handle is dropped unless a code step still needs it.
   */
  const signIn = async (id: string, request: (p: Pending) => Promise<LoginResult>, failMessage: string) => {
    set({ error: null, busy: true });
    let p: Pending | null = null;
    let keep = false;
    try {
      p = await derive(id);
      keep = !(await complete(await request(p), p));
    } catch (e) {
      fail(e, failMessage);
    } finally {
      if (p && !keep) crypto.discard(p.handle);
      set({ busy: false });
    }
  };

  const submitCredentials = async (event: FormEvent) => {
    event.preventDefault();
    if (locked || busy) return;
    session.clearNotice();
    set({ info: null });
    const id = identifier.trim();
    if (!id || !password) {
      set({ error: FILL_ALL_FIELDS });
      return;
    }
    await signIn(id, (p) => login(api, { identifier: id, authKey: p.authKey }), LOGIN_MESSAGES.failed);
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!pending || busy || locked) return;
    if (useBackup ? !backupCode : !isValidCode(code)) {
      set({ error: useBackup ? TWO_FACTOR_MESSAGES.backupCode : TWO_FACTOR_MESSAGES.code });
      return;
    }
    set({ error: null, busy: true });
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
      set({ busy: false });
    }
  };

  const submitEmergency = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || locked) return;
    const id = identifier.trim();
    const username = state.emergency.username.trim();
    const phoneNumber = state.emergency.phoneNumber.trim();
    if (!id || !username || !phoneNumber || !password) {
      set({ error: TWO_FACTOR_MESSAGES.emergencyFields });
      return;
    }
    await signIn(
      id,
      (p) => verifyEmergency(api, { identifier: id, username, phoneNumber, authKey: p.authKey }),
      TWO_FACTOR_MESSAGES.emergencyFailed,
    );
  };

  const backToCredentials = () => {
    if (pending) crypto.discard(pending.handle);
    dispatch({ type: 'back' });
  };

  return {
    state,
    notice,
    locked,
    lockoutSeconds: lockout.remainingSeconds,
    lockedByAdmin,
    edit: (field: LoginField, value: string) => set({ [field]: value }),
    editEmergency: (field: 'username' | 'phoneNumber', value: string) =>
      dispatch({ type: 'emergency-field', field, value }),
    setStayUnlocked: (stayUnlocked: boolean) => set({ stayUnlocked }),
    toggleBackup: () => dispatch({ type: 'toggle-backup' }),
    submitCredentials,
    submitCode,
    submitEmergency,
    backToCredentials,
  };
}

export type LoginFlow = ReturnType<typeof useLoginFlow>;
