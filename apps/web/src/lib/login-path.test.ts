import { describe, expect, it } from 'vitest';
import { loginPathFor } from './login-path';

describe('loginPathFor (spec section 2)', () => {
  it('sends an area with its own sign-in to /{segment}/login', () => {
    expect(loginPathFor('/admin')).toBe('/admin/login');
    expect(loginPathFor('/admin/users/7')).toBe('/admin/login');
  });

  it('sends everything else to /login', () => {
    expect(loginPathFor('/')).toBe('/login');
    expect(loginPathFor('')).toBe('/login');
    expect(loginPathFor('/vault')).toBe('/login');
    expect(loginPathFor('/settings')).toBe('/login');
  });
});
