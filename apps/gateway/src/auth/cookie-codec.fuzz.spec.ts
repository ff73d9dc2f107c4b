/**
 * Fuzzing cookies (docs/fuzzing.md): the gateway reads the refresh cookie (/api/auth) and the
 * admin cookie (/api/admin) from whatever Cookie header arrives. parseCookieHeader answers any
 * header with valid names only, on an object without a prototype, and never throws; a value the
 * gateway set comes back exactly, beside any other cookies; RefreshCookies and AdminCookies read
 * a non-empty value or nothing; the Host header decides Secure without throwing.
 */
import { ADMIN_COOKIE, REFRESH_COOKIE } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config/gateway.config';
import { AdminCookies } from './admin-cookie';
import { parseCookieHeader, serializeCookie } from './cookie-codec';
import { hostnameOf, isSecureCookie, RefreshCookies } from './refresh-cookie';

const NAME_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const nameArb = fc.string({ unit: fc.constantFrom(..."!#$%&'*+-.^_`|~09AZaz"), minLength: 1, maxLength: 12 });
/** A token as auth issues them (base64url, a dot) or any well-formed text: what the gateway may set. */
const valueArb = fc.oneof(
  fc.base64String({ maxLength: 80 }).map((s) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
/** Cookie headers: pairs of any names and values, joined with any separators, or any text. */
const headerArb = fc.oneof(
  fc
    .array(
      fc.tuple(fc.oneof(nameArb, hostileString(10)), fc.constantFrom('=', '==', ''), hostileString(30)),
      { maxLength: 6 },
    )
    .chain((pairs) =>
      fc
        .constantFrom('; ', ';', ';;', ' ; ')
        .map((sep) => pairs.map(([n, eq, v]) => `${n}${eq}${v}`).join(sep)),
    ),
  hostileString(),
  fc
    .constant(`${REFRESH_COOKIE.name}=abc.def; ${ADMIN_COOKIE.name}="x%20y"`)
    .chain((valid) => mutationOf(valid)),
);

const config = { cookieSecure: 'auto' } as GatewayConfig;
const request = (cookie: string | undefined) =>
  ({ headers: cookie === undefined ? {} : { cookie } }) as FastifyRequest;

describe('cookies (fuzz)', () => {
  const parse = fuzzSettings(2_000);
  it(
    parse.title(
      'any Cookie header: valid names only, no prototype, no throw; both credential cookies read a value or nothing',
    ),
    async () => {
      const refresh = new RefreshCookies(config);
      const admin = new AdminCookies(config);
      await fuzz(
        fc.property(fc.option(headerArb, { nil: undefined }), (header) => {
          const parsed = parseCookieHeader(header);
          expect(Object.getPrototypeOf(parsed)).toBeNull();
          for (const [name, value] of Object.entries(parsed)) {
            expect(name).toMatch(NAME_RE);
            expect(typeof value).toBe('string');
          }
          for (const read of [refresh.read(request(header)), admin.read(request(header))]) {
            if (read !== undefined) expect(read.length).toBeGreaterThan(0);
          }
        }),
        parse,
      );
    },
    parse.timeoutMs,
  );

  const roundTrip = fuzzSettings(1_000);
  it(
    roundTrip.title('a cookie the gateway sets reads back exactly, among any other cookies'),
    async () => {
      await fuzz(
        fc.property(
          valueArb,
          fc.array(
            fc.tuple(
              nameArb,
              fc.string({ maxLength: 20 }).filter((v) => !v.includes(';')),
            ),
            { maxLength: 4 },
          ),
          fc.boolean(),
          (value, others, first) => {
            const set = serializeCookie(REFRESH_COOKIE.name, value, {
              path: REFRESH_COOKIE.path,
              httpOnly: true,
              sameSite: 'strict',
              secure: true,
            });
            // What a browser sends back: the name=value pair of Set-Cookie, beside the others.
            const pair = set.split(';')[0]!;
            const rest = others.filter(([n]) => n !== REFRESH_COOKIE.name).map(([n, v]) => `${n}=${v}`);
            const header = (first ? [pair, ...rest] : [...rest, pair]).join('; ');
            expect(parseCookieHeader(header)[REFRESH_COOKIE.name]).toBe(value);
          },
        ),
        roundTrip,
      );
    },
    roundTrip.timeoutMs,
  );

  const hosts = fuzzSettings(1_000);
  it(
    hosts.title('any Host header: a host name without a port, and Secure decided without a throw'),
    async () => {
      await fuzz(
        fc.property(
          fc.option(
            fc.oneof(
              hostileString(60),
              fc.domain(),
              fc.ipV6().map((ip) => `[${ip}]:8080`),
            ),
            { nil: undefined },
          ),
          (host) => {
            const name = hostnameOf(host);
            expect(typeof name).toBe('string');
            if (!name.startsWith('[')) expect(name).not.toContain(':');
            expect(typeof isSecureCookie('auto', host)).toBe('boolean');
          },
        ),
        hosts,
      );
    },
    hosts.timeoutMs,
  );
});
