import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor give up after 1 s by default: a lazily loaded screen rendering in jsdom took 1.9 s
// once on a 2-core machine running both test workers. They still answer as soon as the UI is there.
configure({ asyncUtilTimeout: 5000 });

// React Testing Library cleans up by itself only with Vitest globals; this project imports them.
afterEach(() => {
  if (typeof window === 'undefined') return; // node-environment files (real crypto)
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.body.className = '';
});
