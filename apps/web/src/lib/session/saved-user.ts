import { STORAGE_KEYS, type KeyValueStorage } from '../storage';

/**
 * The saved user of spec section 3: `{id, email, token}` in localStorage, so a reload knows who
 * was signed in. `token` is the short-lived access JWT (15 minutes); the long-lived refresh token
 * is an HttpOnly cookie that script can never read, and no key or password is ever stored here.
 */
export interface SavedUser {
  id: string;
  email: string;
  token: string;
}

const JWT_PART = /^[A-Za-z0-9_-]+$/;

/** Spec section 5: the token must have three dot-separated parts (a JWT). */
export function isWellFormedToken(token: unknown): token is string {
  if (typeof token !== 'string') return false;
  const parts = token.split('.');
  return parts.length === 3 && parts.every((p) => p.length > 0 && JWT_PART.test(p));
}

/** Spec section 4: discarded when id, email or token is missing or the token is malformed. */
export function parseSavedUser(raw: string | null): SavedUser | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { id, email, token } = value as Record<string, unknown>;
  if (typeof id !== 'string' || id.trim() === '') return null;
  if (typeof email !== 'string' || email.trim() === '') return null;
  if (!isWellFormedToken(token)) return null;
  return { id, email, token };
}

export function readSavedUser(storage: KeyValueStorage): SavedUser | null {
  const user = parseSavedUser(storage.get(STORAGE_KEYS.savedUser));
  if (!user) storage.remove(STORAGE_KEYS.savedUser);
  return user;
}

export function writeSavedUser(storage: KeyValueStorage, user: SavedUser): void {
  storage.set(STORAGE_KEYS.savedUser, JSON.stringify({ id: user.id, email: user.email, token: user.token }));
}

export function clearSavedUser(storage: KeyValueStorage): void {
  storage.remove(STORAGE_KEYS.savedUser);
}
