import { decodeCursor, encodeCursor } from './note-cursor';

const ID = '3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7b';
const at = new Date('2026-03-04T05:06:07.089Z');
const ORDER = '1772600767089123';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('note list cursor', () => {
  it('round-trips a position exactly, to the millisecond', () => {
    const cursor = encodeCursor({ updatedAt: at, storedOrder: ORDER, id: ID });
    expect(decodeCursor(cursor)).toEqual({ updatedAt: at, storedOrder: ORDER, id: ID });
  });

  it('round-trips the stored order of notes stored before it existed (0) and the largest bigint', () => {
    for (const storedOrder of ['0', '9223372036854775807']) {
      const cursor = encodeCursor({ updatedAt: at, storedOrder, id: ID });
      expect(decodeCursor(cursor)).toEqual({ updatedAt: at, storedOrder, id: ID });
    }
  });

  it('is opaque URL-safe text', () => {
    expect(encodeCursor({ updatedAt: at, storedOrder: ORDER, id: ID })).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc+/='],
    ['base64url of garbage', b64('hello')],
    ['a missing id', b64(`${at.getTime()}:${ORDER}:`)],
    ['a missing stored order (the cursor before it existed)', b64(`${at.getTime()}:${ID}`)],
    ['an id that is not a lowercase UUID v4', b64(`${at.getTime()}:${ORDER}:${ID.toUpperCase()}`)],
    ['a UUID of another version', b64(`${at.getTime()}:${ORDER}:3f2b8c1e-9d4a-1e6f-8a1b-2c3d4e5f6a7b`)],
    ['a negative time', b64(`-1:${ORDER}:${ID}`)],
    ['a negative stored order', b64(`${at.getTime()}:-1:${ID}`)],
    ['a stored order over the largest bigint', b64(`${at.getTime()}:9223372036854775808:${ID}`)],
    ['a time after the year 9999', b64(`253402300800000:${ORDER}:${ID}`)],
    ['extra text', b64(`${at.getTime()}:${ORDER}:${ID}:x`)],
    ['over 200 characters', 'A'.repeat(201)],
  ])('refuses %s', (_label, text) => {
    expect(decodeCursor(text)).toBeUndefined();
  });

  it('refuses a non-canonical spelling of a valid position', () => {
    expect(decodeCursor(b64(`0${at.getTime()}:${ORDER}:${ID}`))).toBeUndefined();
    expect(decodeCursor(b64(`${at.getTime()}:0${ORDER}:${ID}`))).toBeUndefined();
  });
});
