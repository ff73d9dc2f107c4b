import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RUNTIME_CONFIG, parseRuntimeConfig, readRuntimeConfig } from './runtime-config';

describe('runtime config', () => {
  afterEach(() => {
    delete window.__VAULT_CONFIG__;
  });

  it('defaults to a 10-minute timeout with a 60-second warning', () => {
    expect(readRuntimeConfig()).toEqual(DEFAULT_RUNTIME_CONFIG);
    expect(DEFAULT_RUNTIME_CONFIG).toMatchObject({
      inactivityTimeoutMs: 600_000,
      inactivityWarningMs: 60_000,
    });
  });

  it('reads window.__VAULT_CONFIG__ set by /env-config.js', () => {
    window.__VAULT_CONFIG__ = { inactivityTimeoutMs: 20_000, inactivityWarningMs: 10_000 };
    expect(readRuntimeConfig()).toMatchObject({ inactivityTimeoutMs: 20_000, inactivityWarningMs: 10_000 });
  });

  it('keeps defaults for invalid values and never lets the warning reach the timeout', () => {
    expect(parseRuntimeConfig({ inactivityTimeoutMs: 'soon', inactivityWarningMs: -1 })).toEqual(
      DEFAULT_RUNTIME_CONFIG,
    );
    expect(parseRuntimeConfig({ inactivityTimeoutMs: 30_000 })).toMatchObject({
      inactivityTimeoutMs: 30_000,
      inactivityWarningMs: 15_000,
    });
    expect(parseRuntimeConfig(null)).toEqual(DEFAULT_RUNTIME_CONFIG);
  });
});
