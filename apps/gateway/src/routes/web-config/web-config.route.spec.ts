import { generateKeyPairSync } from 'node:crypto';
import { loadGatewayConfig } from '../../config/gateway.config';
import { renderWebConfigScript, webRuntimeConfig } from './web-config.route';

const JWT_PUBLIC_KEY = generateKeyPairSync('ed25519')
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();

describe('webRuntimeConfig', () => {
  it('defaults to a 10-minute inactivity timeout with a 60-second warning', () => {
    expect(webRuntimeConfig(loadGatewayConfig({ JWT_PUBLIC_KEY }))).toEqual({
      inactivityTimeoutMs: 600_000,
      inactivityWarningMs: 60_000,
    });
  });

  it('takes shorter values from WEB_INACTIVITY_TIMEOUT_MS / WEB_INACTIVITY_WARNING_MS (tests)', () => {
    const config = loadGatewayConfig({
      JWT_PUBLIC_KEY,
      WEB_INACTIVITY_TIMEOUT_MS: '20000',
      WEB_INACTIVITY_WARNING_MS: '10000',
    });
    expect(webRuntimeConfig(config)).toEqual({ inactivityTimeoutMs: 20_000, inactivityWarningMs: 10_000 });
  });

  it('refuses a warning that does not come before the timeout', () => {
    expect(() =>
      loadGatewayConfig({
        JWT_PUBLIC_KEY,
        WEB_INACTIVITY_TIMEOUT_MS: '60000',
        WEB_INACTIVITY_WARNING_MS: '60000',
      }),
    ).toThrow(/WEB_INACTIVITY_WARNING_MS: must be less than WEB_INACTIVITY_TIMEOUT_MS/);
  });
});

describe('renderWebConfigScript', () => {
  it('assigns the values to window.__VAULT_CONFIG__ as JSON', () => {
    const script = renderWebConfigScript({ inactivityTimeoutMs: 600_000, inactivityWarningMs: 60_000 });
    expect(script).toBe(
      'window.__VAULT_CONFIG__ = Object.freeze({"inactivityTimeoutMs":600000,"inactivityWarningMs":60000});\n',
    );
    const window: { __VAULT_CONFIG__?: unknown } = {};
    new Function('window', script)(window);
    expect(window.__VAULT_CONFIG__).toEqual({ inactivityTimeoutMs: 600_000, inactivityWarningMs: 60_000 });
  });

  it('escapes characters that could end the script or a string', () => {
    const hostile = { inactivityTimeoutMs: 1, inactivityWarningMs: 2, note: '</script><b>&\u2028' };
    const script = renderWebConfigScript(hostile as never);
    expect(script).not.toMatch(/[<>&\u2028]/);
    const window: { __VAULT_CONFIG__?: { note?: string } } = {};
    new Function('window', script)(window);
    expect(window.__VAULT_CONFIG__?.note).toBe('</script><b>&\u2028');
  });
});
