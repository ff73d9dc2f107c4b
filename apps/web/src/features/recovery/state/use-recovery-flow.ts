import type { AuthResponse } from '@vault/contracts';
import { useReducer, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { useSessionStore } from '../../../lib/session/session-context';
import { TWO_FACTOR_MESSAGES, isValidCode } from '../../../lib/two-factor';
import { cryptoErrorCode, type NewAccountMaterial } from '../../../workers/crypto-service';
import {
  getRecoveryQuestions,
  resetWithRecovery,
  sendRecoveryCode,
  verifyRecoveryAnswers,
  verifyRecoveryCode,
  verifyRecoveryKey,
  type RecoveryQuestions,
} from '../api/recovery';
import { validateNewPassword } from '../utils/new-password';
import { looksLikeRecoveryKey } from '../utils/recovery-key-text';
import { RECOVERY_TEXT, RECOVERY_WINDOW_MINUTES } from '../utils/recovery-messages';
import { clearRecoveryBypass, storeRecoveryBypass } from '../utils/recovery-session';
import { useRecoveryCrypto } from './use-recovery-crypto';

export type RecoveryStep =
  'choose' | 'verify-email' | 'verify-questions' | 'verify-key' | 'new-password' | 'success';

/** What a verification gave: the bypass token and, on the recovery-key path, the key to the old vault. */
export interface Verified {
  bypassToken: string;
  message: string;
  /** Recovery-key path only: the worker's handle of the typed key and the vault key it wraps. */
  recovery?: { handle: string; recoveryWrappedVaultKey: string };
}

export interface Done {
  answer: AuthResponse;
  vaultKey: CryptoKey;
  keptVaultKey: boolean;
}

export interface RecoveryState {
  step: RecoveryStep;
  email: string;
  error: string | null;
  info: string | null;
  busy: boolean;
  code: string;
  questions: RecoveryQuestions | null;
  answers: string[];
  keyText: string;
  verified: Verified | null;
  password: string;
  confirm: string;
  understood: boolean;
  /** The reset material, made once: a 2FA retry sends the same (one Argon2id run, one key opening). */
  material: NewAccountMaterial | null;
  /** The account has 2FA on: the reset also needs a current code. */
  needsCode: boolean;
  useBackup: boolean;
  totp: string;
  backupCode: string;
  done: Done | null;
}

/** The fields a step edits as the user types. */
export type RecoveryField = 'email' | 'code' | 'keyText' | 'password' | 'confirm' | 'totp' | 'backupCode';

type Action =
  /** Field edits, progress and outcomes: the fields given. */
  | { type: 'set'; patch: Partial<RecoveryState> }
  | { type: 'answer'; index: number; value: string }
  | { type: 'toggle-backup' }
  /** A verification succeeded: on to the new password. */
  | { type: 'verified'; verified: Verified }
  /** 'Try another way': back to the choice, everything typed since forgotten (the e-mail kept). */
  | { type: 'reset' };

const INITIAL: RecoveryState = {
  step: 'choose',
  email: '',
  error: null,
  info: null,
  busy: false,
  code: '',
  questions: null,
  answers: [],
  keyText: '',
  verified: null,
  password: '',
  confirm: '',
  understood: false,
  material: null,
  needsCode: false,
  useBackup: false,
  totp: '',
  backupCode: '',
  done: null,
};

function reduce(state: RecoveryState, action: Action): RecoveryState {
  switch (action.type) {
    case 'set':
      return { ...state, ...action.patch };
    case 'answer':
      return { ...state, answers: state.answers.map((a, j) => (j === action.index ? action.value : a)) };
    case 'toggle-backup':
      return { ...state, useBackup: !state.useBackup, error: null };
    case 'verified':
      return { ...state, verified: action.verified, error: null, info: null, step: 'new-password' };
    case 'reset':
      return { ...INITIAL, email: state.email, busy: state.busy, done: state.done };
  }
}

const isStatus = (e: unknown, ...statuses: number[]) => e instanceof ApiError && statuses.includes(e.status);

/** A rate limit says so (and when to retry); any other failure gets the spec's text (section 8). */
function failure(e: unknown, specText: string): string {
  if (e instanceof ApiError && e.status === 429 && e.message) return e.message;
  return specText;
}

/**
 * The recovery flow (spec "Recovery screen", section 4 "Recovery flow", sections 5 and 8): the
 * e-mail, then an e-mail code, the security questions or the recovery key (docs/crypto-protocol.md
 * "Recovery"); then a new password, set with the bypass token the verification returned (POST
 * /auth/recovery/reset), then the success step. Only the recovery key brings the old vault key
 * back; the other two reset access and make a new vault key. The state is one reducer; the steps'
 * components (components/recovery-steps) render it and call these actions.
 */
export function useRecoveryFlow() {
  const api = useApiClient();
  const crypto = useRecoveryCrypto();
  const session = useSessionStore();
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(reduce, INITIAL);
  const set = (patch: Partial<RecoveryState>) => dispatch({ type: 'set', patch });
  const { busy, verified, questions, material, needsCode, useBackup } = state;
  const trimmedEmail = state.email.trim();

  const reset = () => {
    if (verified?.recovery) crypto?.discard(verified.recovery.handle);
    clearRecoveryBypass();
    dispatch({ type: 'reset' });
  };

  const requireEmail = (): boolean => {
    if (!trimmedEmail) {
      set({ error: RECOVERY_TEXT.emailRequired });
      return false;
    }
    return true;
  };

  /** A verification succeeded: keep the token for this tab (spec) and go on to the new password. */
  const onVerified = (v: Verified) => {
    storeRecoveryBypass(v.bypassToken, trimmedEmail, Date.now() + RECOVERY_WINDOW_MINUTES * 60_000);
    dispatch({ type: 'verified', verified: v });
  };

  const chooseEmail = async () => {
    if (busy || !requireEmail()) return;
    set({ error: null, busy: true });
    try {
      set({ info: await sendRecoveryCode(api, trimmedEmail), step: 'verify-email' });
    } catch (e) {
      set({ error: failure(e, RECOVERY_TEXT.sendFailed) });
    } finally {
      set({ busy: false });
    }
  };

  const chooseQuestions = async () => {
    if (busy || !requireEmail()) return;
    set({ error: null, info: null, busy: true });
    try {
      const found = await getRecoveryQuestions(api, trimmedEmail);
      if (found.questions.length === 0) {
        set({ error: RECOVERY_TEXT.noQuestions });
        return;
      }
      set({ questions: found, answers: found.questions.map(() => ''), step: 'verify-questions' });
    } catch (e) {
      set({
        error: isStatus(e, 404) ? RECOVERY_TEXT.noQuestions : failure(e, RECOVERY_TEXT.questionsFailed),
      });
    } finally {
      set({ busy: false });
    }
  };

  const chooseKey = () => {
    if (busy || !requireEmail()) return;
    set({ error: null, info: null, step: 'verify-key' });
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!isValidCode(state.code)) {
      set({ error: RECOVERY_TEXT.code });
      return;
    }
    set({ error: null, busy: true });
    try {
      onVerified(await verifyRecoveryCode(api, { email: trimmedEmail, code: state.code }));
    } catch (e) {
      set({ error: failure(e, RECOVERY_TEXT.invalidCode) });
    } finally {
      set({ busy: false });
    }
  };

  const resendCode = async () => {
    if (busy) return;
    set({ error: null, busy: true });
    try {
      set({ info: await sendRecoveryCode(api, trimmedEmail) });
    } catch (e) {
      set({ error: failure(e, RECOVERY_TEXT.sendFailed) });
    } finally {
      set({ busy: false });
    }
  };

  const submitAnswers = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !questions || !crypto) return;
    if (state.answers.some((a) => a.trim() === '')) {
      set({ error: RECOVERY_TEXT.answersRequired });
      return;
    }
    set({ error: null, busy: true });
    try {
      // The answers never leave the device: only answersAuth, derived with the account's KDF.
      const answersAuth = await crypto.deriveRecoveryAnswersAuth(
        state.answers,
        questions.questionsSalt,
        questions.kdfParams,
      );
      onVerified(await verifyRecoveryAnswers(api, { email: trimmedEmail, answersAuth }));
    } catch (e) {
      set({
        error:
          e instanceof ApiError ? failure(e, RECOVERY_TEXT.incorrectAnswers) : RECOVERY_TEXT.incorrectAnswers,
      });
    } finally {
      set({ busy: false });
    }
  };

  const submitKey = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !crypto) return;
    if (!looksLikeRecoveryKey(state.keyText)) {
      set({ error: RECOVERY_TEXT.keyFormat });
      return;
    }
    set({ error: null, busy: true });
    let handle: string | null = null;
    try {
      const prepared = await crypto.prepareRecoveryKey(state.keyText);
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
      set({
        error:
          e instanceof ApiError
            ? failure(e, RECOVERY_TEXT.invalidKey)
            : e instanceof Error && e.message
              ? RECOVERY_TEXT.keyFormat
              : RECOVERY_TEXT.invalidKey,
      });
    } finally {
      if (handle) crypto.discard(handle);
      set({ busy: false });
    }
  };

  const submitNewPassword = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !verified || !crypto) return;
    const { password, confirm, understood, totp, backupCode } = state;
    const keeps = Boolean(verified.recovery);
    if (!material) {
      // The sign-up rules, through the sign-up validator (the identity fields are not asked here).
      const problem = validateNewPassword(password, confirm);
      if (problem) {
        set({ error: problem });
        return;
      }
      if (!keeps && !understood) {
        set({ error: RECOVERY_TEXT.confirmNewKey });
        return;
      }
    }
    if (needsCode && (useBackup ? !backupCode : !isValidCode(totp))) {
      set({ error: useBackup ? TWO_FACTOR_MESSAGES.backupCode : TWO_FACTOR_MESSAGES.code });
      return;
    }
    set({ error: null, busy: true });
    try {
      // Made once: a 2FA retry sends the same material (one Argon2id run, one recovery key opening).
      let m = material;
      if (!m) {
        m = await crypto.createResetMaterial(password, verified.recovery);
        set({ material: m });
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
      set({
        done: { answer, vaultKey: m.vaultKey, keptVaultKey: keeps },
        password: '',
        confirm: '',
        step: 'success',
      });
    } catch (e) {
      if (isStatus(e, 401) && e instanceof ApiError && /verification code|backup code/i.test(e.message)) {
        // The account has 2FA on (ASVS 6.4.3): the reset also needs a current code.
        set({
          error: needsCode ? e.message : null,
          needsCode: true,
          info: 'Your account has two-step verification. Enter a code from your authenticator app.',
        });
      } else if (isStatus(e, 401)) {
        set({ error: RECOVERY_TEXT.expired });
      } else if (e instanceof ApiError || cryptoErrorCode(e) === 'BAD_INPUT') {
        // The server's text, or the worker's "start again" when the typed key has expired there.
        set({ error: e instanceof Error && e.message ? e.message : RECOVERY_TEXT.resetFailed });
      } else {
        set({ error: RECOVERY_TEXT.resetFailed });
      }
    } finally {
      set({ busy: false });
    }
  };

  const finish = async (to: string) => {
    const { done } = state;
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

  return {
    state,
    /** Whether this browser can run recovery at all (the crypto worker's recovery operations). */
    supported: crypto !== null,
    trimmedEmail,
    edit: (field: RecoveryField, value: string) => set({ [field]: value }),
    setUnderstood: (understood: boolean) => set({ understood }),
    setAnswer: (index: number, value: string) => dispatch({ type: 'answer', index, value }),
    toggleBackup: () => dispatch({ type: 'toggle-backup' }),
    reset,
    chooseEmail,
    chooseQuestions,
    chooseKey,
    submitCode,
    resendCode,
    submitAnswers,
    submitKey,
    submitNewPassword,
    finish,
  };
}

export type RecoveryFlow = ReturnType<typeof useRecoveryFlow>;
