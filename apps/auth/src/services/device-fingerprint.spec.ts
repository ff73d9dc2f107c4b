import { deviceFingerprint, networkOf, userAgentFamily } from './device-fingerprint';

const CHROME_WIN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_WIN_NEWER = CHROME_WIN.replace('131.0.0.0', '140.0.7339.80');
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const EDGE_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

describe('userAgentFamily', () => {
  it('names the browser and the system, not the version', () => {
    expect(userAgentFamily(CHROME_WIN)).toBe('chrome/windows');
    expect(userAgentFamily(CHROME_WIN_NEWER)).toBe('chrome/windows');
    expect(userAgentFamily(FIREFOX_LINUX)).toBe('firefox/linux');
    expect(userAgentFamily(SAFARI_IPHONE)).toBe('safari/ios');
    expect(userAgentFamily(EDGE_MAC)).toBe('edge/macos');
  });

  it('puts unrecognised clients in one family', () => {
    expect(userAgentFamily('')).toBe('other/other');
    expect(userAgentFamily('curl/8.5.0')).toBe('other/other');
    expect(userAgentFamily('vault-e2e/alice')).toBe('other/other');
  });
});

describe('networkOf', () => {
  it('keeps the /24 of IPv4 and of IPv4-mapped IPv6', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:203.0.113.200')).toBe('203.0.113.0/24');
  });

  it('keeps the /48 of IPv6 in any notation', () => {
    expect(networkOf('2001:db8:abcd:12::1')).toBe('2001:db8:abcd::/48');
    expect(networkOf('2001:0db8:abcd:0099:0000:0000:0000:0002')).toBe('2001:db8:abcd::/48');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(networkOf('::1')).toBe('0:0:0::/48');
  });

  it('answers unknown for anything else', () => {
    expect(networkOf('')).toBe('unknown');
    expect(networkOf('not-an-ip')).toBe('unknown');
  });
});

describe('deviceFingerprint', () => {
  const secret = 'x'.repeat(32);

  it('is the same for the same family on the same network', () => {
    expect(deviceFingerprint(secret, CHROME_WIN, '203.0.113.7')).toBe(
      deviceFingerprint(secret, CHROME_WIN_NEWER, '203.0.113.99'),
    );
  });

  it('differs by family, by network and by secret', () => {
    const base = deviceFingerprint(secret, CHROME_WIN, '203.0.113.7');
    expect(deviceFingerprint(secret, FIREFOX_LINUX, '203.0.113.7')).not.toBe(base);
    expect(deviceFingerprint(secret, CHROME_WIN, '198.51.100.7')).not.toBe(base);
    expect(deviceFingerprint('y'.repeat(32), CHROME_WIN, '203.0.113.7')).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{32}$/);
  });
});
