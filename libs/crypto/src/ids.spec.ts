import { isItemId, newItemId } from './ids';

describe('item ids', () => {
  it('makes lowercase UUID v4s, with or without crypto.randomUUID', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newItemId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(isItemId(id)).toBe(true);

    const original = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true, writable: true });
      const id = newItemId();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true, writable: true });
    }
  });

  it('recognises only lowercase v4', () => {
    expect(isItemId('3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7b')).toBe(true);
    expect(isItemId('3F2B8C1E-9D4A-4E6F-8A1B-2C3D4E5F6A7B')).toBe(false);
    expect(isItemId('3f2b8c1e-9d4a-5e6f-8a1b-2c3d4e5f6a7b')).toBe(false);
    expect(isItemId('3f2b8c1e9d4a4e6f8a1b2c3d4e5f6a7b')).toBe(false);
  });
});
