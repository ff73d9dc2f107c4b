import { EventEmitter } from 'node:events';
import { REPAIR_REASON, RepairSweep, type RepairReason } from './repair-sweep';

function setup(options: { everyMs?: number } = {}) {
  const redis = new EventEmitter();
  const warnings: string[] = [];
  const reasons: RepairReason[] = [];
  let release: (() => void) | undefined;
  let fail: Error | undefined;
  const onReconnect = jest.fn();
  const repair = new RepairSweep({
    redis,
    logger: { warn: (message) => warnings.push(message) },
    what: 'queue lost jobs again',
    sweep: (reason) => {
      reasons.push(reason);
      const error = fail;
      return new Promise<void>((resolve, reject) => {
        release = () => (error ? reject(error) : resolve());
      });
    },
    onReconnect,
    ...options,
  });
  const settle = async () => {
    release?.();
    release = undefined;
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { redis, repair, reasons, warnings, onReconnect, settle, failNext: (e: Error) => (fail = e) };
}

describe(RepairSweep.name, () => {
  it('sweeps at start and each time Redis is back, one sweep at a time', async () => {
    const { redis, repair, reasons, onReconnect, settle } = setup();
    repair.start();
    expect(reasons).toEqual([REPAIR_REASON.start]);
    // Back while the first still runs: covered by it (and its other repair still done).
    redis.emit('ready');
    expect(onReconnect).toHaveBeenCalledTimes(1);
    expect(reasons).toEqual([REPAIR_REASON.start]);
    await settle();
    redis.emit('ready');
    expect(reasons).toEqual([REPAIR_REASON.start, REPAIR_REASON.reconnect]);
    await settle();
    await repair.stop();
    redis.emit('ready');
    expect(reasons).toHaveLength(2);
    expect(redis.listenerCount('ready')).toBe(0);
  });

  it('logs a failed sweep with its reason, and the next occasion tries again', async () => {
    const { redis, repair, reasons, warnings, settle, failNext } = setup();
    failNext(new Error('connection closed'));
    repair.start();
    await settle();
    expect(warnings).toEqual(['Could not queue lost jobs again (start): connection closed']);
    redis.emit('ready');
    expect(reasons).toEqual([REPAIR_REASON.start, REPAIR_REASON.reconnect]);
    await settle();
    await repair.stop();
  });

  it('sweeps every everyMs too, and stop() waits for the sweep running', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const { repair, reasons, settle } = setup({ everyMs: 1000 });
      repair.start();
      await settle();
      jest.advanceTimersByTime(1000);
      expect(reasons).toEqual([REPAIR_REASON.start, REPAIR_REASON.periodic]);
      let stopped = false;
      const stopping = repair.stop().then(() => (stopped = true));
      await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toBe(false);
      await settle();
      await stopping;
      expect(stopped).toBe(true);
      jest.advanceTimersByTime(5000);
      expect(reasons).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
