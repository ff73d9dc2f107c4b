import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { STORAGE_KEYS, type KeyValueStorage } from '../../../lib/storage';
import { InactivityTimer } from '../state/inactivity-timer';

/** What counts as activity (spec: mouse, keys, touch, scroll). */
export const ACTIVITY_EVENTS = [
  'mousemove',
  'mousedown',
  'keydown',
  'touchstart',
  'scroll',
  'wheel',
] as const;

export interface InactivityState {
  /** Spec's app state `inactivityWarning`. */
  warning: boolean;
  /** Spec's app state `inactivityTimeRemaining`, whole seconds. */
  remainingSeconds: number;
  stayLoggedIn(): void;
}

export interface UseInactivityOptions {
  enabled: boolean;
  timeoutMs: number;
  warningMs: number;
  onTimeout(): void;
  /** Shares activity between tabs (localStorage + the storage event). */
  storage?: KeyValueStorage;
}

/**
 * Runs the inactivity timer while `enabled` (signed in). Activity on the page, throttled to once
 * a second, resets it; activity in another tab of the app counts too, so an idle tab does not end
 * a session that is in use elsewhere.
 */
export function useInactivity({
  enabled,
  timeoutMs,
  warningMs,
  onTimeout,
  storage,
}: UseInactivityOptions): InactivityState {
  const [warning, setWarning] = useState(false);
  const [remainingSeconds, setRemainingSeconds] = useState(Math.ceil(warningMs / 1000));
  const timerRef = useRef<InactivityTimer | null>(null);
  const handleTimeout = useEffectEvent(() => onTimeout());

  useEffect(() => {
    if (!enabled) return;
    const share = () => storage?.set(STORAGE_KEYS.lastActivity, String(Date.now()));
    const timer = new InactivityTimer({
      timeoutMs,
      warningMs,
      onWarning: (ms) => {
        setRemainingSeconds(Math.ceil(ms / 1000));
        setWarning(true);
      },
      onTick: (ms) => setRemainingSeconds(Math.ceil(ms / 1000)),
      onWarningCleared: () => setWarning(false),
      onTimeout: () => {
        setWarning(false);
        handleTimeout();
      },
    });
    timerRef.current = timer;
    timer.start();
    share();

    const onActivity = () => {
      if (timer.activity()) share();
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key !== STORAGE_KEYS.lastActivity || !event.newValue) return;
      const at = Number(event.newValue);
      if (Number.isFinite(at)) timer.externalActivity(at);
    };
    for (const name of ACTIVITY_EVENTS) {
      window.addEventListener(name, onActivity, { passive: true, capture: true });
    }
    window.addEventListener('storage', onStorage);
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
      window.removeEventListener('storage', onStorage);
      timer.stop();
      timerRef.current = null;
      setWarning(false);
    };
  }, [enabled, timeoutMs, warningMs, storage]);

  const stayLoggedIn = useCallback(() => {
    timerRef.current?.stayLoggedIn();
    storage?.set(STORAGE_KEYS.lastActivity, String(Date.now()));
  }, [storage]);

  return { warning: enabled && warning, remainingSeconds, stayLoggedIn };
}
