import { screen } from '@testing-library/react';
import type { renderApp } from '../../../testing/render-app';

/** A valid sign-up, by field label. */
export const SIGNUP_FORM = {
  Username: 'alice',
  Email: 'alice@example.org',
  'Phone number': '+1 555 0100',
  Password: 'Correct-horse-1',
  'Confirm password': 'Correct-horse-1',
};

/** Fills the sign-up form (a patched value of '' leaves that field empty) and presses Create account. */
export async function fillSignup(
  app: Awaited<ReturnType<typeof renderApp>>,
  patch: Partial<typeof SIGNUP_FORM> = {},
) {
  await screen.findByRole('heading', { name: 'Create your vault' });
  for (const [label, value] of Object.entries({ ...SIGNUP_FORM, ...patch })) {
    if (value) await app.user.type(screen.getByLabelText(label), value);
  }
  await app.user.click(screen.getByRole('button', { name: 'Create account' }));
}
