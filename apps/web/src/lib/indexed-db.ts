/**
 * One object store of an IndexedDB database on this device, opened per call and closed after (the
 * stores here are small and rarely used). Without IndexedDB (private modes, tests) or when the
 * database cannot be opened, calls resolve with undefined: callers treat that as "nothing kept".
 */
export interface IndexedDbStore {
  db: string;
  store: string;
  /** How the store is created the first time (e.g. autoIncrement keys). */
  options?: IDBObjectStoreParameters;
}

function openDb({ db, store, options }: IndexedDbStore): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(db, 1);
    } catch {
      resolve(null);
      return;
    }
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(store)) request.result.createObjectStore(store, options);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
    request.onblocked = () => resolve(null);
  });
}

/** Runs `fn` in one transaction; resolves with its request's result once the transaction completes. */
export async function withIndexedDbStore<T>(
  target: IndexedDbStore,
  mode: IDBTransactionMode,
  fn: (store: IDBObjectStore) => IDBRequest<T> | void,
): Promise<T | undefined> {
  const db = await openDb(target);
  if (!db) return undefined;
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const tx = db.transaction(target.store, mode);
      const request = fn(tx.objectStore(target.store));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}
