import type { Permission, Role, UserDto } from '@vault/contracts';
import type { VaultKeyStore } from '../key-store';
import type { KeyValueStorage } from '../storage';
import { clearSavedUser, readSavedUser, writeSavedUser } from './saved-user';

/** The signed-in user (spec section 3, "User (session)"); `token` is the access JWT. */
export interface SessionUser {
  id: string;
  email: string;
  token: string;
  username?: string;
  role?: Role;
  permissions?: Permission[];
  twoFactorEnabled?: boolean;
  createdAt?: string;
}

export interface SessionState {
  user: SessionUser | null;
  /**
   * The vault key: a NON-extractable AES-256-GCM CryptoKey, in memory only (and in IndexedDB
   * only when the user chose "Stay unlocked on this device"). Null while the vault is locked.
   */
  vaultKey: CryptoKey | null;
  /** Spec section 4: set 100 ms after the session starts (and after a stored key is restored). */
  isInitialized: boolean;
  /** Shown once on the sign-in screen after the session ended on its own. */
  notice: string | null;
}

export interface SessionStoreOptions {
  storage: KeyValueStorage;
  keyStore: VaultKeyStore;
  now?: () => number;
}

/** Spec section 4: "The app-initialised flag is set after 100 ms. A re-initialisation guard of 1 second applies." */
export const INIT_DELAY_MS = 100;
export const REINIT_GUARD_MS = 1000;

const fromDto = (dto: UserDto, token: string): SessionUser => ({
  id: dto.id,
  email: dto.email,
  token,
  username: dto.username,
  role: dto.role,
  permissions: dto.permissions,
  twoFactorEnabled: dto.twoFactorEnabled,
  createdAt: dto.createdAt,
});

/**
 * The session: who is signed in, the access token, the vault key. A small external store
 * (`useSyncExternalStore`) so the API client, timers and components share one source of truth.
 */
export class SessionStore {
  private state: SessionState = { user: null, vaultKey: null, isInitialized: false, notice: null };
  private readonly listeners = new Set<() => void>();
  private lastInit = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;

  constructor(private readonly options: SessionStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  getState = (): SessionState => this.state;

  /** The browser storage this session uses (shared with the inactivity timer's cross-tab signal). */
  get storage(): KeyValueStorage {
    return this.options.storage;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((l) => l());
  }

  /**
   * Session start: the saved user from storage (discarded when malformed), the vault key from
   * IndexedDB when the user chose to stay unlocked, then the initialised flag after 100 ms.
   * Calls within 1 s of the last one do nothing (React strict mode, quick remounts).
   */
  async init(): Promise<void> {
    const now = this.now();
    if (now - this.lastInit < REINIT_GUARD_MS) return;
    this.lastInit = now;
    const delay = new Promise<void>((resolve) => setTimeout(resolve, INIT_DELAY_MS));
    const saved = readSavedUser(this.options.storage);
    if (saved) {
      const current = this.state.user;
      const user = current?.id === saved.id ? { ...current, token: current.token || saved.token } : saved;
      this.set({ user });
      if (!this.state.vaultKey) {
        const key = await this.options.keyStore.load(saved.id).catch(() => null);
        if (key && this.state.user?.id === saved.id) this.set({ vaultKey: key });
      }
    } else if (this.state.user) {
      this.set({ user: null, vaultKey: null });
    }
    await delay;
    if (!this.state.isInitialized) this.set({ isInitialized: true });
  }

  /**
   * Another tab changed the saved user (storage event): follow it. Signed out there → signed out
   * here (no server call: that tab made it); a refreshed token → use it; signed in there → adopt
   * the user (the vault stays locked until unlocked here or restored from this device).
   */
  async syncFromStorage(): Promise<void> {
    const saved = readSavedUser(this.options.storage);
    const current = this.state.user;
    if (!saved) {
      if (current) this.set({ user: null, vaultKey: null, notice: null });
      return;
    }
    if (!current || current.id !== saved.id) {
      this.set({ user: saved, vaultKey: null });
      const key = await this.options.keyStore.load(saved.id).catch(() => null);
      if (key && this.state.user?.id === saved.id && !this.state.vaultKey) this.set({ vaultKey: key });
      return;
    }
    if (current.token !== saved.token) this.set({ user: { ...current, token: saved.token } });
  }

  /** Sign-in or sign-up succeeded: remember the user, hold the key, optionally keep it on this device. */
  async signIn(input: {
    user: UserDto;
    access: string;
    vaultKey: CryptoKey;
    stayUnlocked: boolean;
  }): Promise<void> {
    const user = fromDto(input.user, input.access);
    writeSavedUser(this.options.storage, user);
    this.set({ user, vaultKey: input.vaultKey, notice: null, isInitialized: true });
    await this.persistKey(user.id, input.vaultKey, input.stayUnlocked);
  }

  /** Unlock after a reload. */
  async unlock(vaultKey: CryptoKey, stayUnlocked: boolean): Promise<void> {
    const user = this.state.user;
    if (!user) return;
    this.set({ vaultKey });
    await this.persistKey(user.id, vaultKey, stayUnlocked);
  }

  private async persistKey(userId: string, key: CryptoKey, stayUnlocked: boolean): Promise<void> {
    try {
      if (stayUnlocked) await this.options.keyStore.save(userId, key);
      else await this.options.keyStore.remove(userId);
    } catch {
      // The key still works for this tab; it just will not survive a reload.
    }
  }

  /** The API client refreshed the access token. */
  setAccessToken(token: string): void {
    const user = this.state.user;
    if (!user || user.token === token) return;
    const next = { ...user, token };
    writeSavedUser(this.options.storage, next);
    this.set({ user: next });
  }

  /** Fresh account details (from /auth/me). */
  updateUser(dto: UserDto): void {
    const user = this.state.user;
    if (!user || user.id !== dto.id) return;
    const next = fromDto(dto, user.token);
    writeSavedUser(this.options.storage, next);
    this.set({ user: next });
  }

  /**
   * Ends the session on this device: user, token, vault key (memory and IndexedDB), saved user.
   * `notice` is shown on the sign-in screen ('Authentication failed', the inactivity timeout).
   */
  async endSession(notice: string | null = null): Promise<void> {
    const userId = this.state.user?.id;
    clearSavedUser(this.options.storage);
    this.set({ user: null, vaultKey: null, notice, isInitialized: true });
    if (userId) await this.options.keyStore.remove(userId).catch(() => undefined);
  }

  /** A sign-out call still in flight: a new sign-in waits for it, so its cookie is not cleared by it. */
  private signingOut: Promise<unknown> | null = null;

  trackSignOut(call: Promise<unknown>): void {
    const tracked = call
      .catch(() => undefined)
      .finally(() => {
        if (this.signingOut === tracked) this.signingOut = null;
      });
    this.signingOut = tracked;
  }

  async settled(): Promise<void> {
    await this.signingOut;
  }

  clearNotice(): void {
    if (this.state.notice !== null) this.set({ notice: null });
  }
}
