/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { createLogger, defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Vite's logger, less one warning: `<script src="/env-config.js">` is a classic script on purpose
 * (the gateway renders it per install, and it must run before the bundle), so "can't be bundled
 * without type=module" is what we want, not a problem to report on every build.
 */
const levelFlag = process.argv.findIndex((a) => a === '--logLevel' || a === '-l');
const level = levelFlag >= 0 ? process.argv[levelFlag + 1] : undefined;
const logger = createLogger(level === 'warn' || level === 'error' || level === 'silent' ? level : 'info');
const warn = logger.warn.bind(logger);
logger.warn = (msg, options) => {
  if (msg.includes('/env-config.js') && msg.includes("can't be bundled")) return;
  warn(msg, options);
};

/** Where the gateway runs in development (`npm start`): the dev server forwards the API to it. */
const gateway = 'http://127.0.0.1:8080';

export default defineConfig({
  root: here('.'),
  customLogger: logger,
  // Absolute asset URLs: client routes such as /settings must load /assets/... .
  base: '/',
  plugins: [react()],
  resolve: {
    // The shared libs are consumed as TypeScript sources, by package name.
    alias: {
      // The published protocol vectors and their checks (the crypto Worker's self-test); before
      // '@vault/crypto', which would otherwise take this path as its prefix.
      '@vault/crypto/vectors': here('../../libs/crypto/vectors/vector-checks.ts'),
      '@vault/crypto': here('../../libs/crypto/src/index.ts'),
      // The fuzzers' shared settings (tests only), before '@vault/contracts' for the same reason.
      '@vault/contracts/testing': here('../../libs/contracts/src/testing/index.ts'),
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
    // zod and lib/zod-jitless in one chunk: jitless is set as soon as zod loads, before any chunk
    // builds a schema, whichever chunks the rest lands in (else zod's eval probe breaks the CSP).
    rolldownOptions: {
      output: {
        hashCharacters: 'base36',
        codeSplitting: {
          groups: [{ name: 'zod', test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]lib[\\/]zod-jitless\.ts$/ }],
        },
      },
    },
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
    // Both cores: Vitest's default leaves one idle on these 2-core machines (203 s → 141 s).
    maxWorkers: 2,
  },
});
