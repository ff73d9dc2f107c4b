import { ADMIN_PATTERNS, AUTH_PATTERNS, FILES_PATTERNS, NOTES_PATTERNS } from './rpc';
import { RPC } from './rpc-map';

describe('RPC map', () => {
  const patterns = [
    ...Object.values(AUTH_PATTERNS),
    ...Object.values(NOTES_PATTERNS),
    ...Object.values(FILES_PATTERNS),
    ...Object.values(ADMIN_PATTERNS),
  ];

  it('has one entry per message pattern, and no other', () => {
    expect(Object.keys(RPC).sort()).toEqual([...patterns].sort());
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('names the service of each pattern by its prefix', () => {
    for (const pattern of Object.values(AUTH_PATTERNS)) expect(pattern.startsWith('auth.')).toBe(true);
    for (const pattern of Object.values(NOTES_PATTERNS)) expect(pattern.startsWith('notes.')).toBe(true);
    for (const pattern of Object.values(FILES_PATTERNS)) expect(pattern.startsWith('files.')).toBe(true);
    for (const pattern of Object.values(ADMIN_PATTERNS)) expect(pattern.startsWith('admin.')).toBe(true);
  });

  it('gives every request a zod schema or null (no body)', () => {
    for (const entry of Object.values(RPC)) {
      expect(entry.request === null || typeof entry.request.safeParse === 'function').toBe(true);
    }
  });
});
