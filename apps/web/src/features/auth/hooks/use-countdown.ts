import { useCallback, useEffect, useState } from 'react';

export interface Countdown {
  /** Whole seconds left (0 when not running). */
  remainingSeconds: number;
  active: boolean;
  start(seconds: number): void;
  clear(): void;
}

/** A countdown to a deadline (wall clock, so a throttled background tab stays right); ends at zero. */
export function useCountdown(): Countdown {
  const [until, setUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until === null) return;
    const id = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= until) setUntil(null);
    }, 1000);
    return () => clearInterval(id);
  }, [until]);

  const start = useCallback((seconds: number) => {
    const t = Date.now();
    setNow(t);
    setUntil(t + Math.max(0, seconds) * 1000);
  }, []);
  const clear = useCallback(() => setUntil(null), []);

  const remainingSeconds = until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
  return { remainingSeconds, active: until !== null && remainingSeconds > 0, start, clear };
}
