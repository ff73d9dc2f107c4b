import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeVaultKey } from '../../testing/fake-crypto';
import { TEST_USER, fakeJwt } from '../../testing/fake-server';
import { memoryKeyStore } from '../key-store';
import { STORAGE_KEYS, memoryStorage } from '../storage';
import { writeSavedUser } from './saved-user';
import { INIT_DELAY_MS, SessionStore } from './session-store';

function setup() {
  const storage = memoryStorage();
  const keyStore = memoryKeyStore();
  const store = new SessionStore({ storage, keyStore });
  return { storage, keyStore, store };
}

describe('SessionStore', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sets the initialised flag 100 ms after the session starts', async () => {
    const { store } = setup();
    const init = store.init();
    await vi.advanceTimersByTimeAsync(INIT_DELAY_MS - 1);
    expect(store.getState().isInitialized).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await init;
    expect(store.getState().isInitialized).toBe(true);
  });

  it('loads the saved user; discards a malformed one', async () => {
    const { store, storage } = setup();
    writeSavedUser(storage, { id: TEST_USER.id, email: TEST_USER.email, token: fakeJwt() });
    await Promise.all([store.init(), vi.advanceTimersByTimeAsync(INIT_DELAY_MS)]);
    expect(store.getState().user).toEqual({ id: TEST_USER.id, email: TEST_USER.email, token: fakeJwt() });
    expect(store.getState().vaultKey).toBeNull();

    const other = setup();
    other.storage.set(
      STORAGE_KEYS.savedUser,
      JSON.stringify({ id: 'x', email: 'y@z.co', token: 'not-a-jwt' }),
    );
    await Promise.all([other.store.init(), vi.advanceTimersByTimeAsync(INIT_DELAY_MS)]);
    expect(other.store.getState().user).toBeNull();
    expect(other.storage.dump()).toEqual({});
  });

  it('ignores a second start within 1 s (re-initialisation guard)', async () => {
    const { store, storage } = setup();
    await Promise.all([store.init(), vi.advanceTimersByTimeAsync(INIT_DELAY_MS)]);
    writeSavedUser(storage, { id: TEST_USER.id, email: TEST_USER.email, token: fakeJwt() });
    await Promise.all([store.init(), vi.advanceTimersByTimeAsync(INIT_DELAY_MS)]);
    expect(store.getState().user).toBeNull();
    await vi.advanceTimersByTimeAsync(1000);
    await Promise.all([store.init(), vi.advanceTimersByTimeAsync(INIT_DELAY_MS)]);
    expect(store.getState().user?.id).toBe(TEST_USER.id);
  });

  it('restores the vault key only when the user chose to stay unlocked', async () => {
    const key = fakeVaultKey();
    const a = setup();
    await a.store.signIn({ user: TEST_USER, access: fakeJwt(), vaultKey: key, stayUnlocked: true });
    expect(a.keyStore.keys.get(TEST_USER.id)).toBe(key);

    const reload = new SessionStore({ storage: a.storage, keyStore: a.keyStore });
    await Promise.all([reload.init(), vi.advanceTimersByTimeAsync(INIT_DELAY_MS)]);
    expect(reload.getState().vaultKey).toBe(key);

    const b = setup();
    await b.store.signIn({ user: TEST_USER, access: fakeJwt(), vaultKey: key, stayUnlocked: false });
    expect(b.keyStore.keys.size).toBe(0);
  });

  it('stores only {id, email, token}; never the key', async () => {
    const { store, storage } = setup();
    await store.signIn({ user: TEST_USER, access: fakeJwt(), vaultKey: fakeVaultKey(), stayUnlocked: false });
    expect(JSON.parse(storage.get(STORAGE_KEYS.savedUser) ?? '{}')).toEqual({
      id: TEST_USER.id,
      email: TEST_USER.email,
      token: fakeJwt(),
    });
  });

  it('ends the session: user, key in memory and on the device, saved user; keeps a notice', async () => {
    const { store, storage, keyStore } = setup();
    await store.signIn({ user: TEST_USER, access: fakeJwt(), vaultKey: fakeVaultKey(), stayUnlocked: true });
    await store.endSession('Authentication failed');
    expect(store.getState()).toMatchObject({ user: null, vaultKey: null, notice: 'Authentication failed' });
    expect(storage.dump()).toEqual({});
    expect(keyStore.keys.size).toBe(0);
  });

  it('follows another tab: new token, sign-out', async () => {
    const { store, storage } = setup();
    await store.signIn({
      user: TEST_USER,
      access: fakeJwt('a'),
      vaultKey: fakeVaultKey(),
      stayUnlocked: false,
    });
    writeSavedUser(storage, { id: TEST_USER.id, email: TEST_USER.email, token: fakeJwt('b') });
    await store.syncFromStorage();
    expect(store.getState().user?.token).toBe(fakeJwt('b'));
    expect(store.getState().vaultKey).not.toBeNull();
    storage.remove(STORAGE_KEYS.savedUser);
    await store.syncFromStorage();
    expect(store.getState()).toMatchObject({ user: null, vaultKey: null });
  });
});
