import { describe, expect, it } from 'vitest';
import { fakeJwt } from '../../testing/fake-server';
import { STORAGE_KEYS, memoryStorage } from '../storage';
import {
  clearSavedUser,
  isWellFormedToken,
  parseSavedUser,
  readSavedUser,
  writeSavedUser,
} from './saved-user';

const token = fakeJwt();
const valid = { id: 'u1', email: 'a@b.co', token };

describe('saved user (spec sections 3-5)', () => {
  it('accepts id, email and a three-part token', () => {
    expect(parseSavedUser(JSON.stringify(valid))).toEqual(valid);
  });

  it.each([
    ['two parts', 'aaa.bbb'],
    ['four parts', 'a.b.c.d'],
    ['an empty part', 'aaa..ccc'],
    ['no dots', 'opaque-token'],
    ['characters outside base64url', 'a$a.bbb.ccc'],
    ['an empty string', ''],
  ])('discards a token with %s', (_label, bad) => {
    expect(isWellFormedToken(bad)).toBe(false);
    expect(parseSavedUser(JSON.stringify({ ...valid, token: bad }))).toBeNull();
  });

  it.each(['id', 'email', 'token'])('discards a saved user without %s', (field) => {
    const user: Record<string, unknown> = { ...valid };
    delete user[field];
    expect(parseSavedUser(JSON.stringify(user))).toBeNull();
  });

  it('discards blank ids and emails, non-strings, and broken JSON', () => {
    expect(parseSavedUser(JSON.stringify({ ...valid, id: '  ' }))).toBeNull();
    expect(parseSavedUser(JSON.stringify({ ...valid, email: 42 }))).toBeNull();
    expect(parseSavedUser('{not json')).toBeNull();
    expect(parseSavedUser('null')).toBeNull();
    expect(parseSavedUser(null)).toBeNull();
  });

  it('removes a malformed saved user from storage when reading it', () => {
    const storage = memoryStorage({ [STORAGE_KEYS.savedUser]: JSON.stringify({ ...valid, token: 'x.y' }) });
    expect(readSavedUser(storage)).toBeNull();
    expect(storage.dump()).toEqual({});
  });

  it('writes only id, email and token, and clears them', () => {
    const storage = memoryStorage();
    writeSavedUser(storage, { ...valid, ...{ vaultKey: 'never', password: 'never' } } as typeof valid);
    expect(JSON.parse(storage.get(STORAGE_KEYS.savedUser) ?? '')).toEqual(valid);
    expect(readSavedUser(storage)).toEqual(valid);
    clearSavedUser(storage);
    expect(readSavedUser(storage)).toBeNull();
  });
});
