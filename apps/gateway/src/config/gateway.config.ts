import { createPublicKey } from 'node:crypto';
import {
  commonEnvSchema,
  loadConfig,
  readSecret,
  rpcPeersEnvShape,
  rpcPeersFromEnv,
} from '@vault/server-kit';
import { z } from 'zod';

/**
 * The gateway's configuration, validated once at boot (docs/architecture.md "Code conventions").
 * Nothing outside this folder reads `process.env`; every variable is documented in the README.
 */

const bool = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default(fallback)
    .transform((v) => v === 'true');

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number({ error: 'must be a number' }).int().min(min).max(max).default(fallback);

/**
 * `false`; `true`: the peer that connects is the proxy and its X-Forwarded-For entry is the
 * client (one hop, what nginx or an ingress in front gives); or a comma-separated list of
 * proxy addresses/CIDRs (`10.0.0.0/8,loopback`) trusted along the X-Forwarded-For chain.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((v, ctx): false | true | string[] => {
    const value = v.trim();
    if (value === '' || value.toLowerCase() === 'false') return false;
    if (value.toLowerCase() === 'true') return true;
    const list = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (
      list.every(
        (s) => /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/.test(s) || /^(loopback|linklocal|uniquelocal)$/.test(s),
      )
    ) {
      return list;
    }
    ctx.addIssue({ code: 'custom', message: 'must be false, true, or a list of proxy addresses/CIDRs' });
    return z.NEVER;
  });

const corsOrigins = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const origins = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const origin of origins) {
      let parsed: URL | undefined;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = undefined;
      }
      if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
        ctx.addIssue({ code: 'custom', message: `not an origin (scheme://host[:port]): ${origin}` });
        return z.NEVER;
      }
    }
    return origins;
  });

/**
 * An http(s) URL reduced to its origin (`scheme://host[:port]`), or undefined when unset. With
 * `originOnly`, a path, query or fragment is refused rather than dropped.
 */
const originOf = (originOnly: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx): string | undefined => {
      const value = v?.trim();
      if (!value) return undefined;
      let parsed: URL | undefined;
      try {
        parsed = new URL(value);
      } catch {
        parsed = undefined;
      }
      if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.username || parsed.password) {
        ctx.addIssue({ code: 'custom', message: `not an http(s) URL: ${value}` });
        return z.NEVER;
      }
      if (originOnly && (parsed.pathname !== '/' || parsed.search || parsed.hash)) {
        ctx.addIssue({ code: 'custom', message: `must be scheme://host[:port] without a path: ${value}` });
        return z.NEVER;
      }
      return parsed.origin;
    });

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

export const gatewayEnvSchema = commonEnvSchema.extend({
  GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_PORT: int(8080, 0, 65535),
  ...rpcPeersEnvShape,
  FILES_HTTP_URL: originOf(true).transform((v) => v ?? 'http://127.0.0.1:4013'),
  S3_PUBLIC_ENDPOINT: originOf(false),
  CLOUDINARY_UPLOAD_ORIGIN: originOf(false),
  WEB_ROOT: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  SERVE_STATIC: bool('true'),
  TRUST_PROXY: trustProxy,
  CORS_ORIGINS: corsOrigins,
  COOKIE_SECURE: z.enum(['auto', 'always', 'never']).default('auto'),
  RATE_LIMIT_AUTH_PER_MINUTE: int(30, 1, 1_000_000),
  RATE_LIMIT_API_PER_MINUTE: int(600, 1, 1_000_000),
  RATE_LIMIT_BLOB_PER_MINUTE: int(600, 1, 1_000_000),
  SESSION_CACHE: bool('true'),
  BODY_LIMIT_BYTES: int(1_153_434, 1024, 1024 * 1024 * 1024),
  RPC_TIMEOUT_MS: int(10_000, 100, 600_000),
  WEB_INACTIVITY_TIMEOUT_MS: int(600_000, 1_000, 86_400_000),
  WEB_INACTIVITY_WARNING_MS: int(60_000, 1_000, 86_400_000),
  // GET /api/about: the build, as the image build sets it (GIT_COMMIT, or VAULT_COMMIT).
  GIT_COMMIT: optionalText,
  VAULT_COMMIT: optionalText,
  VAULT_BUILT_AT: optionalText,
});

export type CookieSecureMode = 'auto' | 'always' | 'never';

export interface GatewayConfig {
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: string;
  logPretty: boolean;
  host: string;
  port: number;
  redis: { url: string; prefix: string };
  rpc: { transport: 'tcp' | 'nats'; natsUrl: string; timeoutMs: number };
  auth: { host: string; port: number };
  notes: { host: string; port: number };
  admin: { host: string; port: number };
  /** The files service: its RPC address, and its HTTP listener (blob route) as an origin. */
  files: { host: string; port: number; httpUrl: string };
  /**
   * Origins the web app talks to directly besides this one (CSP `connect-src`): the S3 endpoint
   * of presigned PUT/GET URLs and Cloudinary's upload API. Unset: not allowed.
   */
  storageOrigins: { s3?: string; cloudinaryUpload?: string };
  /** SPKI PEMs of the Ed25519 keys that verify access tokens (more than one while rotating). */
  jwtPublicKeys: string[];
  /** Folder of the built web app; undefined means the built-in placeholder page. */
  webRoot?: string;
  serveStatic: boolean;
  /** false; true (one proxy in front); or the proxy addresses/CIDRs whose X-Forwarded-For is trusted. */
  trustProxy: false | true | string[];
  corsOrigins: string[];
  cookieSecure: CookieSecureMode;
  rateLimit: { authPerMinute: number; apiPerMinute: number; blobPerMinute: number };
  /**
   * Live sessions remembered while Redis reports every change of `sess:*`, and the signed-in `api`
   * bucket counted here in batches (docs/architecture.md "Session liveness"); false: both asked of
   * Redis on every request.
   */
  sessionCache: boolean;
  bodyLimitBytes: number;
  /** What the web app reads from GET /env-config.js (routes/web-config). */
  web: { inactivityTimeoutMs: number; inactivityWarningMs: number };
  /** GET /api/about: the commit and build time the image build set (unset: the checkout's HEAD, null). */
  build: { commit?: string; builtAt?: string };
  /**
   * The internal ops listener (HEALTH_HOST/HEALTH_PORT): probes and Prometheus' /metrics, on a port
   * of its own so they are never served on the public one. Unset port: none.
   */
  ops: { host: string; port?: number };
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

const PEM_PUBLIC_KEY = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g;

/** At most this many keys at once: the current one and the one being rotated in or out. */
export const JWT_PUBLIC_KEYS_MAX = 3;

/**
 * JWT_PUBLIC_KEY: one Ed25519 SPKI PEM block, or several while the signing key is rotated
 * (docs/operations.md "Rotating the JWT signing key"); tokens name the key they were signed with.
 */
function readPublicKeys(env: Record<string, string | undefined>): string[] {
  let pem: string | undefined;
  try {
    pem = readSecret(env, 'JWT_PUBLIC_KEY');
  } catch (error) {
    throw new Error(`  JWT_PUBLIC_KEY_FILE: cannot be read (${(error as Error).message})`);
  }
  if (!pem) {
    throw new Error(
      '  JWT_PUBLIC_KEY: required (SPKI PEM of the Ed25519 access-token key), or JWT_PUBLIC_KEY_FILE',
    );
  }
  // Env files often carry PEMs on one line with literal "\n".
  const normalised = pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
  const blocks = normalised.match(PEM_PUBLIC_KEY) ?? [];
  const outside = normalised.replace(PEM_PUBLIC_KEY, '').trim();
  if (blocks.length === 0 || outside !== '') {
    throw new Error('  JWT_PUBLIC_KEY: must be an Ed25519 public key in SPKI PEM form');
  }
  if (blocks.length > JWT_PUBLIC_KEYS_MAX) {
    throw new Error(
      `  JWT_PUBLIC_KEY: at most ${JWT_PUBLIC_KEYS_MAX} keys (the current one and those rotated)`,
    );
  }
  for (const block of blocks) {
    let type: string | undefined;
    try {
      type = createPublicKey(block).asymmetricKeyType;
    } catch {
      type = undefined;
    }
    if (type !== 'ed25519') {
      throw new Error('  JWT_PUBLIC_KEY: must be an Ed25519 public key in SPKI PEM form');
    }
  }
  return blocks.map((b) => b.trim());
}

/** Reads and validates the environment; throws one error listing every problem. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const problems: string[] = [];
  let e: z.output<typeof gatewayEnvSchema> | undefined;
  let jwtPublicKeys: string[] = [];
  try {
    e = loadConfig(gatewayEnvSchema, env);
  } catch (error) {
    problems.push(...(error as Error).message.split('\n').slice(1));
  }
  try {
    jwtPublicKeys = readPublicKeys(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (e && e.WEB_INACTIVITY_WARNING_MS >= e.WEB_INACTIVITY_TIMEOUT_MS) {
    problems.push('  WEB_INACTIVITY_WARNING_MS: must be less than WEB_INACTIVITY_TIMEOUT_MS');
  }
  if (e?.HEALTH_PORT && e.HEALTH_PORT === e.GATEWAY_PORT) {
    problems.push(
      '  HEALTH_PORT: must differ from GATEWAY_PORT (metrics are never served on the public port)',
    );
  }
  if (!e || problems.length > 0) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  return {
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY,
    host: e.GATEWAY_HOST,
    port: e.GATEWAY_PORT,
    redis: { url: e.REDIS_URL, prefix: e.REDIS_PREFIX },
    rpc: { transport: e.RPC_TRANSPORT, natsUrl: e.NATS_URL, timeoutMs: e.RPC_TIMEOUT_MS },
    ...rpcPeersFromEnv(e, ['auth', 'notes', 'admin']),
    files: { ...rpcPeersFromEnv(e, ['files']).files, httpUrl: e.FILES_HTTP_URL },
    storageOrigins: {
      ...(e.S3_PUBLIC_ENDPOINT ? { s3: e.S3_PUBLIC_ENDPOINT } : {}),
      ...(e.CLOUDINARY_UPLOAD_ORIGIN ? { cloudinaryUpload: e.CLOUDINARY_UPLOAD_ORIGIN } : {}),
    },
    jwtPublicKeys,
    webRoot: e.WEB_ROOT,
    serveStatic: e.SERVE_STATIC,
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    cookieSecure: e.COOKIE_SECURE,
    rateLimit: {
      authPerMinute: e.RATE_LIMIT_AUTH_PER_MINUTE,
      apiPerMinute: e.RATE_LIMIT_API_PER_MINUTE,
      blobPerMinute: e.RATE_LIMIT_BLOB_PER_MINUTE,
    },
    sessionCache: e.SESSION_CACHE,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    web: {
      inactivityTimeoutMs: e.WEB_INACTIVITY_TIMEOUT_MS,
      inactivityWarningMs: e.WEB_INACTIVITY_WARNING_MS,
    },
    build: {
      ...(e.GIT_COMMIT || e.VAULT_COMMIT ? { commit: e.GIT_COMMIT ?? e.VAULT_COMMIT } : {}),
      ...(e.VAULT_BUILT_AT ? { builtAt: e.VAULT_BUILT_AT } : {}),
    },
    ops: { host: e.HEALTH_HOST, ...(e.HEALTH_PORT === undefined ? {} : { port: e.HEALTH_PORT }) },
  };
}

/** What is safe to log at boot: no key material, no URL passwords. */
export function describeConfig(config: GatewayConfig): Record<string, unknown> {
  const { jwtPublicKeys: _keys, redis, ...rest } = config;
  return {
    ...rest,
    redis: { url: redis.url.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@'), prefix: redis.prefix },
  };
}
