import type { SessionState, SessionStore, SessionUser } from './session-store';

/** What a feature's registry keeps for the unlocked vault (a store, the upload queue): made for one vault key. */
export interface VaultBound {
  readonly vaultKey: CryptoKey;
  readonly isDisposed: boolean;
  dispose(): void;
}

/** Whether `item` was made for another vault key than the session's now (or the session has no user). */
export function lostBy(item: VaultBound, state: SessionState): boolean {
  return !state.user || state.vaultKey !== item.vaultKey;
}

/** `current` while it is still live for the session's vault key, else null (never makes one). */
export function liveFor<T extends VaultBound>(current: T | null, session: SessionStore): T | null {
  return current && !current.isDisposed && current.vaultKey === session.getState().vaultKey ? current : null;
}

/**
 * `current` while it is live for the session's vault key; otherwise the old one disposed and a
 * new one from `make`. Null while the vault is locked (then `current` is left as it is).
 */
export function renewFor<T extends VaultBound>(
  session: SessionStore,
  current: T | null,
  make: (vaultKey: CryptoKey, user: SessionUser) => T,
): T | null {
  const { user, vaultKey } = session.getState();
  if (!user || !vaultKey) return null;
  const live = liveFor(current, session);
  if (live) return live;
  current?.dispose();
  return make(vaultKey, user);
}
