import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * What the unusual-activity rule calls a "device": the browser family and operating system of
 * the User-Agent (not its version, which changes with every update) plus the network the
 * request came from (IPv4 /24, IPv6 /48), so a new address from the same home or office is
 * not a new device. Stored only as a keyed hash: no user agent or address is kept.
 */

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'edge'],
  [/\b(?:OPR|Opera)\//, 'opera'],
  [/\b(?:Firefox|FxiOS)\//, 'firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'chrome'],
  [/\bSafari\//, 'safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'ios'],
  [/\bAndroid\b/, 'android'],
  [/\bCrOS\b/, 'chromeos'],
  [/\bWindows\b/, 'windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macos'],
  [/\bLinux\b/, 'linux'],
];

/** `browser/os`, each `other` when not recognised (scripts and API clients share one family). */
export function userAgentFamily(userAgent: string): string {
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1] ?? 'other';
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1] ?? 'other';
  return `${browser}/${system}`;
}

/** The IPv4 /24 or IPv6 /48 of an address (IPv4-mapped IPv6 counts as IPv4); `unknown` otherwise. */
export function networkOf(ip: string): string {
  const value = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(value)?.[1];
  const v4 = mapped ?? value;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(value)) return `${expandIPv6(value).slice(0, 3).join(':')}::/48`;
  return 'unknown';
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros. */
function expandIPv6(ip: string): string[] {
  const address = ip.split('%')[0] ?? ip;
  const [head = '', tail] = address.split('::');
  const parse = (part: string) => (part ? part.split(':') : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = Math.max(0, 8 - left.length - right.length);
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right];
  return groups.map((g) => (g.includes('.') ? g : parseInt(g, 16).toString(16)));
}

/** HMAC-SHA256 under the server secret, so the stored value cannot be turned back into a network. */
export function deviceFingerprint(serverSecret: string, userAgent: string, ip: string): string {
  return createHmac('sha256', serverSecret)
    .update(`device\n${userAgentFamily(userAgent)}\n${networkOf(ip)}`)
    .digest('hex')
    .slice(0, 32);
}
