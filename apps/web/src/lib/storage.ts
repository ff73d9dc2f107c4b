/**
 * Browser storage that never throws (private modes, quotas, disabled storage): a failed
 * read is "nothing stored", a failed write is ignored.
 */
export interface KeyValueStorage {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

function wrap(getStore: () => Storage | undefined): KeyValueStorage {
  return {
    get(key) {
      try {
        return getStore()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        getStore()?.setItem(key, value);
      } catch {
        // Storage full or disabled: the app still works, it just forgets on reload.
      }
    },
    remove(key) {
      try {
        getStore()?.removeItem(key);
      } catch {
        // Nothing to do.
      }
    },
  };
}

export const localStore: KeyValueStorage = wrap(() =>
  typeof window === 'undefined' ? undefined : window.localStorage,
);

export const sessionStore: KeyValueStorage = wrap(() =>
  typeof window === 'undefined' ? undefined : window.sessionStorage,
);

/** Every key this app writes, in one place. */
export const STORAGE_KEYS = {
  /** The saved user of spec section 3: {id, email, token}. */
  savedUser: 'vault.user',
  /** Last user activity (ms since epoch), shared across tabs for the inactivity timer. */
  lastActivity: 'vault.lastActivity',
} as const;

/** In-memory storage for tests. */
export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & {
  dump(): Record<string, string>;
} {
  const data = new Map(Object.entries(initial));
  return {
    get: (key) => data.get(key) ?? null,
    set: (key, value) => void data.set(key, value),
    remove: (key) => void data.delete(key),
    dump: () => Object.fromEntries(data),
  };
}
