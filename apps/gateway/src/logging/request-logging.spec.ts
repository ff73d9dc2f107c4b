import type { IncomingMessage } from 'node:http';
import { loggableUrl, requestIdFor } from './request-logging';

const raw = (id?: string) => ({ headers: id === undefined ? {} : { 'x-request-id': id } }) as IncomingMessage;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFor', () => {
  it('keeps a short safe incoming x-request-id', () => {
    expect(requestIdFor(raw('abc-123_DEF.4:5'))).toBe('abc-123_DEF.4:5');
  });

  it.each(['', 'has space', '<script>', 'a'.repeat(129), 'line\nbreak', 'ü'])(
    'replaces %p with a UUID',
    (id) => {
      expect(requestIdFor(raw(id))).toMatch(UUID);
    },
  );

  it('makes a UUID when none comes', () => {
    expect(requestIdFor(raw())).toMatch(UUID);
  });
});

describe('loggableUrl', () => {
  it('keeps paths and harmless query values, masks every other value', () => {
    expect(loggableUrl('/api/notes?limit=20&cursor=abc')).toBe('/api/notes?limit=20&cursor=abc');
    expect(loggableUrl('/api/x?token=s3cret&email=a@b.c&limit=5')).toBe('/api/x?token=***&email=***&limit=5');
    expect(loggableUrl('/api/auth/me')).toBe('/api/auth/me');
  });
});
