import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ErrorBanner } from '../../../components/banner';
import { Dialog } from '../../../components/dialog';
import { PasswordInput } from '../../../components/password-input';
import { ApiError } from '../../../lib/api-client';
import type { TwoFactorProof } from '../api/two-factor';
import { unlessWrongPassword, useAccountCrypto, useVaultMaterial } from '../hooks/use-account-crypto';
import { SETTINGS_MESSAGES, failureText, isSixDigits } from '../utils/settings-validation';
import { DialogFormActions, SettingsForm, VerificationCodeField } from './settings-form';

type ProofMode = 'code' | 'password';

const PROOF_MODES: { mode: ProofMode; label: string }[] = [
  { mode: 'code', label: 'An authenticator code' },
  { mode: 'password', label: 'My password' },
];

/**
 * Asks for proof before a 2FA change: a current authenticator code, or the password (checked and
 * turned into authKey on this device; the password itself is never sent).
 */
export function ProofDialog({
  open,
  title,
  warning,
  confirmLabel,
  busyLabel,
  failMessage,
  onConfirm,
  onClose,
  danger,
}: {
  open: boolean;
  title: string;
  warning: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  failMessage: string;
  onConfirm: (proof: TwoFactorProof) => Promise<void>;
  onClose: () => void;
  danger?: boolean;
}) {
  const [mode, setMode] = useState<ProofMode>('code');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const account = useAccountCrypto();
  const material = useVaultMaterial();
  const firstRef = useRef<HTMLInputElement>(null);
  const name = useId();

  const close = () => {
    setCode('');
    setPassword('');
    setError(null);
    setMode('code');
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setError(null);
    if (mode === 'code' && !isSixDigits(code)) {
      setError(code ? 'Please enter the 6-digit verification code' : SETTINGS_MESSAGES.codeRequired);
      return;
    }
    if (mode === 'password' && !password) {
      setError(SETTINGS_MESSAGES.passwordRequired);
      return;
    }
    setBusy(true);
    try {
      let proof: TwoFactorProof;
      if (mode === 'code') {
        proof = { code };
      } else {
        const authKey = await unlessWrongPassword(async () =>
          account().verifyPassword(password, await material()),
        );
        if (authKey === null) {
          setError(SETTINGS_MESSAGES.wrongPassword);
          return;
        }
        proof = { authKey };
      }
      await onConfirm(proof);
      setCode('');
      setPassword('');
      setMode('code');
    } catch (e) {
      // onConfirm throws the text to show; an ApiError (or anything else) gets the usual treatment.
      setError(
        e instanceof ApiError || !(e instanceof Error) || !e.message
          ? failureText(e, failMessage)
          : e.message,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={title}
      role="alertdialog"
      size="sm"
      {...(busy ? {} : { onClose: close })}
      closeOnBackdrop={!busy}
      initialFocusRef={firstRef}
      description={warning}
    >
      <SettingsForm onSubmit={submit}>
        <fieldset className="settings-choice">
          <legend>Confirm with</legend>
          {PROOF_MODES.map((option) => (
            <label key={option.mode}>
              <input
                type="radio"
                name={name}
                checked={mode === option.mode}
                onChange={() => setMode(option.mode)}
                disabled={busy}
              />{' '}
              {option.label}
            </label>
          ))}
        </fieldset>
        {mode === 'code' ? (
          <VerificationCodeField ref={firstRef} value={code} onCode={setCode} disabled={busy} />
        ) : (
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy}
            autoFocus
          />
        )}
        <ErrorBanner error={error} />
        <DialogFormActions
          busy={busy}
          onCancel={close}
          submitLabel={confirmLabel}
          busyLabel={busyLabel}
          danger={danger}
        />
      </SettingsForm>
    </Dialog>
  );
}
