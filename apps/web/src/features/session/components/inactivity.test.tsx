import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../testing/render-app';

const advance = async (ms: number) => {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
};

async function signedInApp() {
  const app = await renderApp({
    path: '/vault',
    signedIn: true,
    unlocked: true,
    advanceTimers: vi.advanceTimersByTime,
  });
  await advance(150);
  screen.getByRole('heading', { name: 'Personal Vault' });
  return app;
}

describe('inactivity (spec: warning at 9:00, sign-out at 10:00)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows 'Session Timeout Warning' with an mm:ss countdown at 9:00, signs out at 10:00", async () => {
    const app = await signedInApp();
    await advance(9 * 60_000 - 1_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await advance(1_000);
    const dialog = screen.getByRole('alertdialog', { name: 'Session Timeout Warning' });
    expect(dialog).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('01:00');
    await advance(15_000);
    expect(screen.getByRole('timer').textContent).toBe('00:45');
    await advance(45_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(app.services.session.getState()).toMatchObject({ user: null, vaultKey: null });
    expect(app.server.calls('POST /api/auth/logout')).toHaveLength(1);
    expect(app.router.state.location.pathname).toBe('/login');
    expect(screen.getByText('You were signed out after 10 minutes of inactivity.')).toBeTruthy();
  });

  it('activity resets the timer, at most once a second', async () => {
    const app = await signedInApp();
    await advance(8 * 60_000);
    await act(async () => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    });
    await advance(8 * 60_000 + 59_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await advance(1_000);
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    expect(app.services.session.getState().user).not.toBeNull();
  });

  it("'Stay Logged In' resets the timer and clears the warning", async () => {
    const app = await signedInApp();
    await advance(9 * 60_000 + 30_000);
    await act(async () => {
      screen.getByRole('button', { name: 'Stay Logged In' }).click();
    });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await advance(9 * 60_000 - 1_000);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(app.services.session.getState().user).not.toBeNull();
  });

  it("'Logout Now' signs out", async () => {
    const app = await signedInApp();
    await advance(9 * 60_000);
    await act(async () => {
      screen.getByRole('button', { name: 'Logout Now' }).click();
    });
    await advance(10);
    expect(app.services.session.getState().user).toBeNull();
    expect(app.server.calls('POST /api/auth/logout')).toHaveLength(1);
    expect(app.router.state.location.pathname).toBe('/login');
  });

  it('uses the timeout from the runtime config', async () => {
    const app = await renderApp({
      path: '/vault',
      signedIn: true,
      unlocked: true,
      config: { inactivityTimeoutMs: 20_000, inactivityWarningMs: 10_000 },
    });
    await advance(150);
    screen.getByRole('heading', { name: 'Personal Vault' });
    await advance(10_000);
    expect(screen.getByRole('timer').textContent).toBe('00:10');
    await advance(10_000);
    expect(app.services.session.getState().user).toBeNull();
  });
});
