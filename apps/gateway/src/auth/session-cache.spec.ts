import { SessionCache } from './session-cache';

function setup(maxEntries = 100) {
  let clock = 0;
  const watch = { watching: true, generation: 1 };
  const cache = new SessionCache({
    keyPrefix: 'vault:sess:',
    maxAgeMs: 60_000,
    maxEntries,
    now: () => clock,
  });
  cache.attach(watch);
  const seen = (sid: string) => cache.remember(sid, cache.mark());
  return { cache, watch, seen, advance: (ms: number) => (clock += ms) };
}

describe(SessionCache.name, () => {
  it('remembers a live session until Redis reports its key changed', () => {
    const { cache, seen } = setup();
    seen('s1');
    seen('s2');
    expect(cache.has('s1')).toBe(true);
    cache.invalidate('vault:sess:s1');
    expect(cache.has('s1')).toBe(false);
    expect(cache.has('s2')).toBe(true);
    // Another deployment's prefix, or another key, is not one of ours.
    cache.invalidate('other:sess:s2');
    cache.invalidate('vault:sess-rot:s2');
    expect(cache.has('s2')).toBe(true);
    cache.invalidate(null);
    expect(cache.has('s2')).toBe(false);
  });

  it('keeps nothing without a watch, and trusts nothing while the watch is down', () => {
    const bare = new SessionCache({ keyPrefix: 'vault:sess:', maxAgeMs: 60_000, maxEntries: 10 });
    bare.remember('s1', bare.mark());
    expect(bare.has('s1')).toBe(false);

    const { cache, watch, seen } = setup();
    seen('s1');
    watch.watching = false;
    expect(cache.has('s1')).toBe(false);
    seen('s2');
    watch.watching = true;
    expect(cache.has('s2')).toBe(false);
  });

  it('drops the answer of a read that raced an invalidation', () => {
    const { cache, watch } = setup();
    const mark = cache.mark();
    // Redis reported a change of some session while the read was on its way back.
    watch.generation += 1;
    cache.remember('s1', mark);
    expect(cache.has('s1')).toBe(false);
  });

  it('asks again after a minute, and forgets the oldest beyond its size', () => {
    const { cache, seen, advance } = setup(2);
    seen('s1');
    advance(59_999);
    expect(cache.has('s1')).toBe(true);
    advance(1);
    expect(cache.has('s1')).toBe(false);
    seen('a');
    seen('b');
    seen('c');
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([false, true, true]);
    expect(cache.size).toBe(2);
  });
});
