import { withIndexedDbStore, type IndexedDbStore } from './indexed-db';

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

const STORE: IndexedDbStore = { db: 'vault-device', store: 'vault-keys' };

function isCryptoKey(v: unknown): v is CryptoKey {
  return typeof CryptoKey !== 'undefined' && v instanceof CryptoKey;
}

export const indexedDbKeyStore: VaultKeyStore = {
  async load(userId) {
    try {
      const value = await withIndexedDbStore<unknown>(STORE, 'readonly', (s) => s.get(userId));
      return isCryptoKey(value) && !value.extractable ? value : null;
    } catch {
      return null;
    }
  },
  async save(userId, key) {
    if (key.extractable) throw new Error('Refusing to store an extractable vault key');
    await withIndexedDbStore(STORE, 'readwrite', (s) => s.put(key, userId));
  },
  async remove(userId) {
    await withIndexedDbStore(STORE, 'readwrite', (s) => s.delete(userId)).catch(() => undefined);
  },
  async clear() {
    await withIndexedDbStore(STORE, 'readwrite', (s) => s.clear()).catch(() => undefined);
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
