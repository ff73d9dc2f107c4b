import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';
import { SUITES } from '../suites';

describe('/testing', () => {
  it('loads the dashboard with the app’s suites and asks the server which build it runs', async () => {
    const server = new FakeServer()
      .withSession()
      .on('GET /api/about', () =>
        json(200, { version: '2.0.0', commit: 'abc1234', builtAt: null, environment: 'test' }),
      )
      // No admin console session in this browser: the server runner says what it is.
      .on('GET /api/admin/test-runner', () =>
        json(401, { error: 'Admin session required', code: 'UNAUTHORIZED' }),
      );
    const app = await renderApp({ path: '/testing', signedIn: true, unlocked: true, server });
    expect(await screen.findByRole('heading', { level: 1, name: 'Testing Dashboard' })).toBeTruthy();
    for (const suite of SUITES) expect(screen.getByRole('region', { name: suite.name })).toBeTruthy();
    await waitFor(() => expect(app.server.calls('GET /api/about')).toHaveLength(1));
    await app.user.click(screen.getByRole('button', { name: 'CI/CD Status' }));
    const ci = screen.getByRole('dialog', { name: 'CI/CD Status' });
    await waitFor(() => expect(ci.textContent).toContain('abc1234'));
    expect(within(ci).getByText('unknown')).toBeTruthy();
    const runner = screen.getByRole('region', { name: 'Server runner' });
    expect(await within(runner).findByRole('link', { name: 'Open the admin console' })).toBeTruthy();
    // The admin API gets the console's cookie, never the user's bearer token; a 401 there is no sign-out.
    const [status] = app.server.calls('GET /api/admin/test-runner');
    expect(status?.headers['authorization']).toBeUndefined();
    expect(screen.getByRole('heading', { level: 1, name: 'Testing Dashboard' })).toBeTruthy();
    expect(app.server.calls('POST /api/auth/refresh')).toHaveLength(0);
  });
});
