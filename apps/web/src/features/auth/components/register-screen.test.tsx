import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, TEST_USER, TEST_VAULT, fakeJwt, json } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';
import { fillSignup } from '../testing/signup-form';

describe('sign-up screen', () => {
  it('validates in the spec order before any key derivation', async () => {
    const app = await renderApp({ path: '/register' });
    await fillSignup(app, { Password: 'Correct-horse', 'Confirm password': 'Correct-horse' });
    expect((await screen.findByRole('alert')).textContent).toBe('Password must contain at least one number');
    expect(app.crypto.calls).toEqual([]);
    expect(app.server.calls('POST /api/auth/signup')).toHaveLength(0);
  });

  it("'Please fill in all fields' first", async () => {
    const app = await renderApp({ path: '/register' });
    await fillSignup(app, { Email: '' });
    expect((await screen.findByRole('alert')).textContent).toBe('Please fill in all fields');
  });

  it('creates the vault key on the device, sends only derived material, and goes to /vault', async () => {
    const server = new FakeServer().withSession().on('POST /api/auth/signup', () =>
      json(201, {
        access: fakeJwt('signup'),
        user: TEST_USER,
        wrappedVaultKey: TEST_VAULT.wrappedVaultKey,
      }),
    );
    const app = await renderApp({ path: '/register', server });
    await fillSignup(app, { Username: ' alice ' });
    await screen.findByRole('heading', { name: 'Personal Vault' });
    const [signup] = app.server.calls('POST /api/auth/signup');
    expect(Object.keys(signup?.body as object).sort()).toEqual(
      ['authKey', 'email', 'kdfParams', 'phoneNumber', 'salt', 'username', 'wrappedVaultKey'].sort(),
    );
    expect(signup?.body).toMatchObject({
      username: 'alice',
      email: 'alice@example.org',
      phoneNumber: '+1 555 0100',
    });
    expect(JSON.stringify(app.server.requests)).not.toContain('Correct-horse-1');
    expect(app.services.session.getState()).toMatchObject({
      user: { id: TEST_USER.id, email: TEST_USER.email },
      vaultKey: app.crypto.vaultKey,
    });
  });

  it("shows the server's message, or 'Registration failed'", async () => {
    const server = new FakeServer().on('POST /api/auth/signup', () =>
      json(409, { error: 'Username already taken', code: 'USERNAME_TAKEN' }),
    );
    const app = await renderApp({ path: '/register', server });
    await fillSignup(app);
    expect((await screen.findByRole('alert')).textContent).toBe('Username already taken');
    server.on('POST /api/auth/signup', () => new Response('', { status: 500 }));
    await app.user.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByText('HTTP 500')).textContent).toBe('HTTP 500');
  });

  it('shows the live checklist and a requirements note, and links to sign in', async () => {
    const app = await renderApp({ path: '/register' });
    await screen.findByRole('heading', { name: 'Create your vault' });
    await app.user.type(screen.getByLabelText('Password'), 'abcDEF12');
    const items = screen.getAllByRole('listitem').filter((li) => li.getAttribute('data-met') === 'true');
    expect(items).toHaveLength(4);
    expect(screen.getByText('About your password')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
  });
});
