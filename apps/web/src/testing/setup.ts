import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// React Testing Library cleans up by itself only with Vitest globals; this project imports them.
afterEach(() => {
  if (typeof window === 'undefined') return; // node-environment files (real crypto)
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.body.className = '';
});
