import { PartOrder } from './part-order';

const PART = 100;

/** A stand-in for `storedBytes` or `send` that answers `value`. */
const answers =
  <T>(value: T) =>
  async () =>
    value;

/** A store that records the order parts reach it and takes a moment for each. */
function recordingStore() {
  const sent: number[] = [];
  let stored = 0;
  return {
    sent,
    stored: async () => stored,
    send: (first: number, end: number) => async () => {
      await new Promise((r) => setTimeout(r, 5));
      sent.push(first);
      if (first === stored) stored = end;
      return first;
    },
  };
}

describe(PartOrder.name, () => {
  it('parts that arrive out of order run in byte order, and nothing is kept afterwards', async () => {
    const order = new PartOrder(2_000);
    const store = recordingStore();
    const arrival = [2, 0, 3, 1];
    const runs = arrival.map((i) =>
      order.run('f', i * PART, (i + 1) * PART, store.stored, store.send(i * PART, (i + 1) * PART)),
    );
    expect(await Promise.all(runs)).toEqual(arrival.map((i) => i * PART));
    expect(store.sent).toEqual([0, 100, 200, 300]);
    expect(order.size).toBe(0);
  });

  it('a part whose predecessor is already stored goes at once', async () => {
    const order = new PartOrder(60_000);
    const store = recordingStore();
    await order.run('f', 0, PART, store.stored, store.send(0, PART));
    const started = Date.now();
    await order.run('f', PART, 2 * PART, store.stored, store.send(PART, 2 * PART));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(store.sent).toEqual([0, PART]);
  });

  it('a part whose predecessor never comes waits at most the limit, then runs (and the store refuses it)', async () => {
    const order = new PartOrder(50);
    const store = recordingStore();
    const started = Date.now();
    await order.run('f', 2 * PART, 3 * PART, store.stored, store.send(2 * PART, 3 * PART));
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(store.sent).toEqual([2 * PART]);
    expect(await store.stored()).toBe(0);
    expect(order.size).toBe(0);
  });

  it('a failed part does not stop the ones queued after it', async () => {
    const order = new PartOrder(2_000);
    const failing = order.run('f', 0, PART, answers(0), async () => {
      throw new Error('store down');
    });
    const next = order.run('f', PART, 2 * PART, answers(0), answers('sent'));
    await expect(failing).rejects.toThrow('store down');
    await expect(next).resolves.toBe('sent');
    expect(order.size).toBe(0);
  });

  it('uploads do not wait for each other', async () => {
    const order = new PartOrder(60_000);
    const never = order.run('a', PART, 2 * PART, answers(0), answers('a'));
    const started = Date.now();
    await expect(order.run('b', 0, PART, answers(0), answers('b'))).resolves.toBe('b');
    expect(Date.now() - started).toBeLessThan(1_000);
    await order.run('a', 0, PART, answers(0), answers('a0'));
    await expect(never).resolves.toBe('a');
  });
});
