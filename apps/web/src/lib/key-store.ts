/**
 * "Stay unlocked on this device": the vault key, as the NON-extractable AES-GCM CryptoKey that
 * unlocking produced, kept in IndexedDB by structured clone. The browser stores the key material
 * in its profile; page script can use the key to encrypt and decrypt but can never read its bytes
 * (not even with this store's help). Nothing is written unless the user asked for it, and
 * sign-out, inactivity timeout and a failed session all delete it.
 */
export interface VaultKeyStore {
  load(userId: string): Promise<CryptoKey | null>;
  save(userId: string, key: CryptoKey): Promise<void>;
  remove(userId: string): Promise<void>;
  clear(): Promise<void>;
}

const DB_NAME = 'vault-device';
const STORE = 'vault-keys';

function openDb(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(DB_NAME, 1);
    } catch {
      resolve(null);
      return;
    }
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
}

async function withStore<T>(
  mode: IDBTransactionMode,
  fn: (store: IDBObjectStore) => IDBRequest<T> | void,
): Promise<T | undefined> {
  const db = await openDb();
  if (!db) return undefined;
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}

function isCryptoKey(v: unknown): v is CryptoKey {
  return typeof CryptoKey !== 'undefined' && v instanceof CryptoKey;
}

export const indexedDbKeyStore: VaultKeyStore = {
  async load(userId) {
    try {
      const value = await withStore<unknown>('readonly', (s) => s.get(userId));
      return isCryptoKey(value) && !value.extractable ? value : null;
    } catch {
      return null;
    }
  },
  async save(userId, key) {
    if (key.extractable) throw new Error('Refusing to store an extractable vault key');
    await withStore('readwrite', (s) => s.put(key, userId));
  },
  async remove(userId) {
    await withStore('readwrite', (s) => s.delete(userId)).catch(() => undefined);
  },
  async clear() {
    await withStore('readwrite', (s) => s.clear()).catch(() => undefined);
  },
};

/** A key store in memory, for tests. */
export function memoryKeyStore(): VaultKeyStore & { keys: Map<string, CryptoKey> } {
  const keys = new Map<string, CryptoKey>();
  return {
    keys,
    load: async (userId) => keys.get(userId) ?? null,
    save: async (userId, key) => void keys.set(userId, key),
    remove: async (userId) => void keys.delete(userId),
    clear: async () => keys.clear(),
  };
}
