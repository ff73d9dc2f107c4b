import { randomToken, safeEqual, SecretHasher } from './secrets';

describe(SecretHasher.name, () => {
  const hasher = new SecretHasher({ memoryKiB: 19456, iterations: 2, parallelism: 1 });

  it('stores an Argon2id PHC string with its own salt, never the secret', async () => {
    const secret = 'a'.repeat(64);
    const one = await hasher.hash(secret);
    const two = await hasher.hash(secret);
    expect(one).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(one).not.toContain(secret);
    expect(one).not.toBe(two);
  });

  it('verifies the right secret and refuses a wrong one', async () => {
    const encoded = await hasher.hash('right');
    await expect(hasher.verify(encoded, 'right')).resolves.toBe(true);
    await expect(hasher.verify(encoded, 'wrong')).resolves.toBe(false);
  });

  it('answers false, not an exception, for a corrupt stored hash', async () => {
    await expect(hasher.verify('not-a-hash', 'x')).resolves.toBe(false);
  });

  it('spends a real verification on unknown accounts', async () => {
    await hasher.verifyDummy('warm-up');
    const t0 = performance.now();
    await expect(hasher.verifyDummy('x')).resolves.toBe(false);
    expect(performance.now() - t0).toBeGreaterThan(2);
  });
});

describe(safeEqual.name, () => {
  it('compares strings of any length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});

describe(randomToken.name, () => {
  it('makes URL-safe tokens of the requested entropy', () => {
    const token = randomToken(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(32)).not.toBe(token);
  });
});
