import { useId, useMemo, useState, type FormEvent } from 'react';
import { Banner, ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { PasswordInput } from '../../../components/password-input';
import { useApiClient } from '../../../lib/api-context';
import { useLegacyKeys } from '../../../lib/legacy-keys';
import { useSession } from '../../../lib/session/session-context';
import {
  WrongOldPasswordError,
  unlockLegacyItems,
  type LegacyUnlockResult,
} from '../state/unlock-legacy-items';
import { useRecoveryCrypto } from '../state/use-recovery-crypto';
import './recovery.css';

export const LEGACY_TEXT = {
  banner: 'Some items are locked from before your account reset. Enter your old password to unlock them.',
  passwordRequired: 'Please enter your old password',
  wrongPassword: 'Incorrect password',
  failed: 'Failed to unlock your items',
} as const;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function summary(r: LegacyUnlockResult): string {
  const notes = r.unlocked.length + r.unlockedInTrash;
  const parts: string[] = [];
  if (notes + r.unlockedFiles === 0 && r.failed === 0 && !r.filesUnavailable) {
    parts.push('Nothing was left to unlock.');
  } else {
    const trash = r.unlockedInTrash > 0 ? ` (${r.unlockedInTrash} in the trash)` : '';
    parts.push(
      `Unlocked ${plural(notes, 'note', 'notes')}${trash} and ${plural(r.unlockedFiles, 'file', 'files')}.`,
    );
  }
  if (r.failed > 0) {
    parts.push(`${plural(r.failed, 'item', 'items')} could not be saved: unlock again to finish.`);
  }
  if (r.filesUnavailable) {
    parts.push('Your files could not be checked: unlock again to move them too.');
  }
  return parts.join(' ');
}

/**
 * The vault's notice about items from before an access reset (docs/crypto-protocol.md "Reset without the recovery key, and legacy keys"): shown when
 * GET /auth/legacy-keys returns keys, with a dialog that takes the old password and moves those items
 * under the current vault key. `onUnlocked` hands the moved items to the screens that show them
 * (the app wires it to the notes and files: app/routes/vault.tsx); the summary shows once it is done.
 */
export function LegacyKeysBanner({
  onUnlocked,
}: {
  onUnlocked: (result: LegacyUnlockResult) => Promise<void> | void;
}) {
  const api = useApiClient();
  const crypto = useRecoveryCrypto();
  const { vaultKey } = useSession();
  // Shared with the notes (which call a note locked only when there is such a key). A failed
  // answer shows no notice (better than a wrong one), and the next visit asks again.
  const legacy = useLegacyKeys(Boolean(vaultKey));
  const [removed, setRemoved] = useState<readonly string[]>([]);
  const keys = useMemo(
    () => (legacy.data?.keys ?? []).filter((k) => !removed.includes(k.id)),
    [legacy.data, removed],
  );
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const formId = `legacy-unlock-${useId()}`;

  if (!crypto || (keys.length === 0 && !done)) return null;

  const close = () => {
    if (busy) return;
    setOpen(false);
    setPassword('');
    setError(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !vaultKey) return;
    if (!password) {
      setError(LEGACY_TEXT.passwordRequired);
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const result = await unlockLegacyItems({ api, crypto, vaultKey, keys, password });
      await onUnlocked(result);
      setDone(summary(result));
      setRemoved((gone) => [...gone, ...result.deletedKeys]);
      setOpen(false);
      setPassword('');
    } catch (e) {
      setError(e instanceof WrongOldPasswordError ? LEGACY_TEXT.wrongPassword : LEGACY_TEXT.failed);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="legacy-keys__banner">
      {done ? (
        <Banner tone="success" role="status">
          {done}
        </Banner>
      ) : null}
      {keys.length > 0 ? (
        <Banner
          tone="warning"
          action={
            <Button variant="secondary" size="sm" onClick={() => setOpen(true)}>
              Unlock
            </Button>
          }
        >
          {LEGACY_TEXT.banner}
        </Banner>
      ) : null}
      <Dialog
        open={open}
        title="Unlock items from before the reset"
        description="Your old password opens the vault key your items were sealed with. They move to your current key on this device; the password is not sent anywhere."
        onClose={close}
        closeOnBackdrop={!busy}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" form={formId} loading={busy} loadingLabel="Unlocking...">
              Unlock
            </Button>
          </>
        }
      >
        <form id={formId} className="form" onSubmit={submit} noValidate>
          <ErrorBanner error={error} />
          <PasswordInput
            label="Old password"
            name="oldPassword"
            autoComplete="off"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy}
            autoFocus
          />
        </form>
      </Dialog>
    </div>
  );
}
