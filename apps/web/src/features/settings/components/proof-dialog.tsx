import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { TextField } from '../../../components/input';
import { PasswordInput } from '../../../components/password-input';
import { ApiError } from '../../../lib/api-client';
import { isWrongPassword } from '../../../workers/crypto-service';
import type { TwoFactorProof } from '../api/two-factor';
import { useAccountCrypto, useVaultMaterial } from '../hooks/use-account-crypto';
import { SETTINGS_MESSAGES, digitsOnly, failureText, isSixDigits } from '../utils/settings-validation';

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
  const [mode, setMode] = useState<'code' | 'password'>('code');
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
        try {
          proof = { authKey: await account().verifyPassword(password, await material()) };
        } catch (e) {
          if (isWrongPassword(e)) {
            setError(SETTINGS_MESSAGES.wrongPassword);
            return;
          }
          throw e;
        }
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
      <form className="settings-form" onSubmit={(e) => void submit(e)} noValidate>
        <fieldset className="settings-choice">
          <legend>Confirm with</legend>
          <label>
            <input
              type="radio"
              name={name}
              checked={mode === 'code'}
              onChange={() => setMode('code')}
              disabled={busy}
            />{' '}
            An authenticator code
          </label>
          <label>
            <input
              type="radio"
              name={name}
              checked={mode === 'password'}
              onChange={() => setMode('password')}
              disabled={busy}
            />{' '}
            My password
          </label>
        </fieldset>
        {mode === 'code' ? (
          <TextField
            ref={firstRef}
            label="Verification code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(digitsOnly(e.target.value))}
            disabled={busy}
          />
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
        {error ? <Banner tone="danger">{error}</Banner> : null}
        <div className="settings-actions settings-actions--end">
          <Button variant="secondary" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant={danger ? 'danger' : 'primary'}
            loading={busy}
            loadingLabel={busyLabel}
          >
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
