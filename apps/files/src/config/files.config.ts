import {
  envInt,
  DEFAULT_RPC_PORTS,
  loadConfig,
  maskConfig,
  readSecret,
  rpcServiceConfig,
  rpcServiceEnvSchema,
  type RpcServiceConfig,
} from '@vault/server-kit';
import { STORAGE_TYPES, type StorageType } from '@vault/contracts';
import { storageOptionsFromEnv, type StorageOptions } from '@vault/storage';
import { z } from 'zod';

/**
 * The files service's configuration. Only this folder reads the environment; everything else
 * receives a typed `FilesConfig` (docs/architecture.md "Code conventions"). Each variable is described in
 * apps/files/README.md. Secrets (STORAGE_SIGNING_SECRET, S3_SECRET_KEY, CLOUDINARY_URL) may
 * come from `NAME_FILE`, and are masked in logs.
 */

export const filesEnvSchema = rpcServiceEnvSchema.extend({
  FILES_RPC_HOST: z.string().min(1).default('127.0.0.1'),
  FILES_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.files),
  /** The blob route (local disk, Cloudinary transfers) the gateway streams to. */
  FILES_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  FILES_HTTP_PORT: envInt(1, 65535).default(4013),
  FILES_CLEANUP_INTERVAL_SECONDS: envInt(10, 86_400).default(300),
  FILES_UPLOAD_ABANDON_SECONDS: envInt(60, 7 * 86_400).default(3_600),
  STORAGE_DEFAULT: z.enum(STORAGE_TYPES).optional(),
  /** false: no local disk storage (the signing secret is still needed by the blob route). */
  STORAGE_LOCAL_ENABLED: z.enum(['true', 'false']).default('true'),
});
export type FilesEnv = z.output<typeof filesEnvSchema>;

/**
 * The settings that turn each storage kind on (README "Configuration"), as `NAME` or `NAME=value`.
 * GET /api/files/storage-types names them for every kind, so the upload dialog can say what an
 * administrator would set to offer a kind this deployment has not configured.
 */
export const STORAGE_ENABLE_SETTINGS: Readonly<Record<StorageType, readonly string[]>> = {
  local: ['STORAGE_LOCAL_ENABLED=true'],
  s3: ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'],
  cloudinary: ['CLOUDINARY_URL'],
};

/** The drivers to build (@vault/storage) and the secret of the blob URLs. */
export interface StorageSettings extends StorageOptions {
  signingSecret: string;
}

export interface FilesConfig extends RpcServiceConfig<FilesEnv> {
  http: { host: string; port: number };
  storage: StorageSettings;
  cleanup: { intervalSeconds: number; abandonSeconds: number };
}

type Env = Record<string, string | undefined>;

/**
 * Storage from the environment (@vault/storage's storageOptionsFromEnv, shared with the scan
 * worker), with two rules of this service: the signing secret is required (the blob route signs
 * Cloudinary transfers as well as local ones), and without STORAGE_DEFAULT, Cloudinary is the
 * default when configured (the spec preselects it), then S3, then the local disk.
 */
export function toStorageSettings(env: Env): StorageSettings {
  const signingSecret = readSecret(env, 'STORAGE_SIGNING_SECRET');
  if (!signingSecret || Buffer.byteLength(signingSecret) < 32) {
    throw new Error(
      'Invalid configuration:\n  STORAGE_SIGNING_SECRET: required, at least 32 bytes (or STORAGE_SIGNING_SECRET_FILE)',
    );
  }
  const localEnabled = env.STORAGE_LOCAL_ENABLED !== 'false';
  const { STORAGE_DEFAULT: requested, ...rest } = env;
  const options = storageOptionsFromEnv({
    ...rest,
    STORAGE_SIGNING_SECRET: signingSecret,
    STORAGE_SIGNING_SECRET_FILE: undefined,
  });
  if (!localEnabled) delete options.local;
  const fallback = options.cloudinary ? 'cloudinary' : options.s3 ? 's3' : 'local';
  const defaultType = (requested as StorageOptions['defaultType'] | undefined) ?? fallback;
  if (!options[defaultType]) {
    throw new Error(`Invalid configuration:\n  STORAGE_DEFAULT: ${defaultType} is not configured`);
  }
  return { ...options, defaultType, signingSecret };
}

export function toFilesConfig(env: FilesEnv, raw: Env): FilesConfig {
  return {
    ...rpcServiceConfig(env, { host: env.FILES_RPC_HOST, port: env.FILES_RPC_PORT }),
    http: { host: env.FILES_HTTP_HOST, port: env.FILES_HTTP_PORT },
    storage: toStorageSettings(raw),
    cleanup: {
      intervalSeconds: env.FILES_CLEANUP_INTERVAL_SECONDS,
      abandonSeconds: env.FILES_UPLOAD_ABANDON_SECONDS,
    },
  };
}

/** Reads and validates the environment once; throws `Invalid configuration: ...` listing every problem. */
export function loadFilesConfig(env: Env = process.env): FilesConfig {
  return toFilesConfig(loadConfig(filesEnvSchema, env), env);
}

/** The configuration as it may appear in logs: secrets and URL passwords masked. */
export function describeConfig(config: FilesConfig): Record<string, unknown> {
  return maskConfig({ ...config.env });
}
