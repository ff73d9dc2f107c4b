import { KDF_LIMITS, REFRESH_COOKIE, meResponseSchema, ownEventListSchema } from '@vault/contracts';
import type { TestingContext } from '../model/context';
import type { CheckDefinition, SuiteDefinition } from '../model/suite';
import { failed, passed, throwIfAborted, warning } from './check-helpers';
import { getParsed, roundTrip } from './e2e-steps';
import { checkHeaders, transportOf } from './security-headers';

type SecurityCheck = CheckDefinition<TestingContext>;

/** Spec: TOTP codes live 30 s; a clock further off than this makes them fail. */
export const CLOCK_SKEW_WARN_MS = 30_000;
/** How many of the newest security events the recovery-key check reads at most. */
const EVENT_PAGES = 5;

const appHeaders: SecurityCheck = {
  id: 'security-headers-app',
  name: 'The app’s security headers',
  why: 'The CSP and nosniff stop injected scripts and framing (clickjacking); HSTS keeps the browser on HTTPS.',
  fix: 'Serve the app through the web tier (nginx) or the gateway, which send the same headers, and keep a reverse proxy from stripping them.',
  docs: 'security-headers',
  quick: true,
  run: (ctx) => checkHeaders(ctx, new URL('/', ctx.pageUrl).href, false),
};

const apiHeaders: SecurityCheck = {
  id: 'security-headers-api',
  name: 'The API’s security headers',
  why: 'API answers hold sealed data: they must never be cached, sniffed or framed.',
  fix: 'Keep a reverse proxy or CDN in front of /api from removing or overriding the gateway’s headers.',
  docs: 'security-headers',
  quick: true,
  run: (ctx) => checkHeaders(ctx, `${ctx.config.apiBaseUrl}/about`, true),
};

const refreshCookie: SecurityCheck = {
  id: 'security-refresh-cookie',
  name: 'The refresh cookie is hidden from scripts',
  why: 'A script that could read the refresh cookie could keep a stolen session alive.',
  fix: 'The cookie must be HttpOnly: update the server, and check that no proxy rewrites Set-Cookie.',
  docs: 'security-refresh-cookie',
  quick: true,
  async run(ctx) {
    const names = ctx
      .readCookies()
      .split(';')
      .map((c) => c.split('=')[0]?.trim());
    if (names.includes(REFRESH_COOKIE.name)) return failed(`document.cookie shows ${REFRESH_COOKIE.name}`);
    return passed(`${REFRESH_COOKIE.name} is not readable by script`);
  },
};

const https: SecurityCheck = {
  id: 'security-https',
  name: 'HTTPS in use',
  why: 'Without HTTPS anyone on the network can change the app’s code and capture your session.',
  fix: 'Serve the vault over HTTPS (docs/operations.md "Install": a reverse proxy with TLS).',
  docs: 'security-https',
  quick: true,
  async run(ctx) {
    const transport = transportOf(ctx.pageUrl);
    if (transport === 'https') return passed('served over HTTPS');
    if (transport === 'local-http') return passed('plain HTTP on this machine (development)');
    return warning(`plain HTTP on ${new URL(ctx.pageUrl).host}`);
  },
};

const kdf: SecurityCheck = {
  id: 'security-kdf',
  name: 'Password KDF at or above the floors',
  why: 'Weak KDF parameters make an offline guess of your password cheaper.',
  fix: 'Change your password (Settings): it is re-derived with the current default parameters.',
  docs: 'security-kdf',
  quick: false,
  run: (ctx) =>
    roundTrip(async () => {
      const me = await getParsed(ctx, '/auth/me', meResponseSchema);
      const p = me.vault.kdfParams;
      if (p.kdf === 'argon2id') {
        const f = KDF_LIMITS.argon2id;
        const low =
          p.memoryKiB < f.minMemoryKiB || p.iterations < f.minIterations || p.parallelism < f.minParallelism;
        const text = `Argon2id ${p.memoryKiB} KiB, ${p.iterations} iterations, parallelism ${p.parallelism}`;
        const metrics = { memoryKiB: p.memoryKiB, iterations: p.iterations, parallelism: p.parallelism };
        return low
          ? failed(`${text}: below the floor (${f.minMemoryKiB} KiB, ${f.minIterations} iterations)`)
          : passed(text, metrics);
      }
      const floor = KDF_LIMITS.pbkdf2.minIterations;
      const text = `PBKDF2-SHA256 ${p.iterations} iterations`;
      return p.iterations < floor
        ? failed(`${text}: below the floor (${floor})`)
        : passed(text, { iterations: p.iterations });
    }),
};

const clock: SecurityCheck = {
  id: 'security-clock',
  name: 'This device’s clock',
  why: 'Two-factor codes are time-based: a clock more than 30 s off makes them fail.',
  fix: 'Turn on automatic date and time on this device (or fix the server’s NTP).',
  docs: 'security-clock',
  quick: false,
  async run(ctx) {
    const sent = ctx.now();
    const res = await ctx.fetch(`${ctx.config.apiBaseUrl}/about`, {
      cache: 'no-store',
      credentials: 'omit',
      signal: ctx.signal,
    });
    const received = ctx.now();
    await res.body?.cancel().catch(() => undefined);
    const server = Date.parse(res.headers.get('date') ?? '');
    if (!Number.isFinite(server)) return failed('The API answer carries no Date header');
    // The Date header has whole seconds: compare with the middle of the round trip, allow 1 s.
    const skew = server - (sent + received) / 2;
    const seconds = Math.round(skew / 100) / 10;
    const metrics = { skewMs: Math.round(skew) };
    if (Math.abs(skew) > CLOCK_SKEW_WARN_MS) {
      return {
        ...warning(`off by ${seconds} s against the server (more than ${CLOCK_SKEW_WARN_MS / 1000} s)`),
        metrics,
      };
    }
    return passed(`within ${Math.max(1, Math.ceil(Math.abs(skew) / 1000))} s of the server`, metrics);
  },
};

const twoFactor: SecurityCheck = {
  id: 'security-2fa',
  name: 'Two-factor authentication',
  why: 'With 2FA, a stolen password alone does not open your account.',
  fix: 'Turn on two-factor authentication in Settings → Security.',
  docs: 'security-2fa',
  quick: false,
  run: (ctx) =>
    roundTrip(async () => {
      const me = await getParsed(ctx, '/auth/me', meResponseSchema);
      return me.user.twoFactorEnabled ? passed('on') : warning('off');
    }),
};

const recoveryKey: SecurityCheck = {
  id: 'security-recovery-key',
  name: 'A recovery key is set',
  why: 'Without a recovery key, a forgotten password means the vault’s data cannot be opened again.',
  fix: 'Create a recovery key in Settings → Recovery and keep the kit somewhere safe.',
  docs: 'security-recovery-key',
  quick: false,
  run: (ctx) =>
    roundTrip(async () => {
      // No answer says it directly: the account's own events do (a key set, or one made at sign-up).
      let cursor: string | null = null;
      for (let page = 0; page < EVENT_PAGES; page++) {
        throwIfAborted(ctx.signal);
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const list = await getParsed(ctx, `/auth/security-events?limit=100${query}`, ownEventListSchema);
        for (const e of list.events) {
          if (e.eventType === 'recovery_key_set') return passed(`set on ${e.timestamp.slice(0, 10)}`);
          if (e.eventType === 'signup') {
            return e.details['recoveryKey'] === true
              ? passed(`made at sign-up (${e.timestamp.slice(0, 10)})`)
              : warning('none: the account was created without one and none was set since');
          }
        }
        cursor = list.nextCursor;
        if (!cursor) return warning('no recovery key was set on this account');
      }
      return warning(`no recovery key in the latest ${EVENT_PAGES * 100} security events`);
    }),
};

export const securitySuite: SuiteDefinition<TestingContext> = {
  id: 'security',
  name: 'Security',
  description:
    'Headers, cookie, transport, KDF strength, clock, 2FA and recovery of this account and server.',
  category: 'security',
  covers: [
    'App and API headers: CSP with frame-ancestors, nosniff, HSTS over HTTPS, no-store on the API',
    'The refresh cookie is not readable by script',
    'HTTPS in use (a warning on plain HTTP outside this machine)',
    'The account’s KDF parameters at or above the protocol floors',
    'The device clock within 30 s of the server',
    'Two-factor authentication on, a recovery key set (warnings otherwise)',
  ],
  checks: [appHeaders, apiHeaders, refreshCookie, https, kdf, clock, twoFactor, recoveryKey],
};
