/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Where the gateway runs in development (`npm start`): the dev server forwards the API to it. */
const gateway = 'http://127.0.0.1:8080';

export default defineConfig({
  root: here('.'),
  // Absolute asset URLs: client routes such as /settings must load /assets/... .
  base: '/',
  plugins: [react()],
  resolve: {
    // The shared libs are consumed as TypeScript sources, by package name.
    alias: {
      '@vault/crypto': here('../../libs/crypto/src/index.ts'),
      '@vault/contracts': here('../../libs/contracts/src/index.ts'),
    },
  },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    // No source maps in the shipped app: nothing about the code or its secrets leaks with it.
    sourcemap: false,
    target: 'es2022',
    // Everything as files: the CSP allows data: images only, and no inline script or style.
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    chunkSizeWarningLimit: 700,
    // Hashes of [a-z0-9] only, so the gateway recognises `name-<hash>.js` and caches it for good.
    rolldownOptions: { output: { hashCharacters: 'base36' } },
  },
  worker: { format: 'es', rolldownOptions: { output: { hashCharacters: 'base36' } } },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: gateway, changeOrigin: false },
      '/env-config.js': { target: gateway, changeOrigin: false },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
    clearMocks: true,
    testTimeout: 15_000,
  },
});
