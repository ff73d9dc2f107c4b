import { readFileSync } from 'node:fs';
import { STORAGE_TYPES, type StorageType } from '@vault/contracts';
import { z } from 'zod';
import type { CloudinaryStorageOptions } from '../cloudinary/cloudinary-storage.driver';
import type { LocalStorageOptions } from '../local/local-storage.driver';
import type { S3StorageOptions } from '../s3/s3-storage.driver';
import type { StorageOptions } from '../storage-factory';

/**
 * Storage settings from environment variables (README "Configuration"). A pure function of
 * the record it is given: the service's config/ module passes `process.env` once at boot.
 *
 * - local: configured when `STORAGE_SIGNING_SECRET` (or `_FILE`) is set.
 * - s3: configured when `S3_BUCKET` is set.
 * - cloudinary: configured when `CLOUDINARY_URL` or `CLOUDINARY_CLOUD_NAME` is set.
 * - `STORAGE_DEFAULT`: default `local` when configured, else the first configured type.
 */
type Env = Record<string, string | undefined>;

function secret(env: Env, name: string): string | undefined {
  const inline = env[name];
  if (inline) return inline;
  const file = env[`${name}_FILE`];
  if (file) return readFileSync(file, 'utf8').trim();
  return undefined;
}

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

const s3EnvSchema = z.object({
  S3_ENDPOINT: httpUrl,
  S3_PUBLIC_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).max(63),
  S3_ACCESS_KEY: z.string({ error: 'is required' }).min(1),
  S3_SECRET_KEY: z.string({ error: 'is required' }).min(1),
  S3_PATH_STYLE: booleanFlag.default(true),
  S3_PART_SIZE_MB: z.coerce.number().int().min(5).max(512).optional(),
});

const cloudinaryEnvSchema = z.object({
  CLOUDINARY_CLOUD_NAME: z.string({ error: 'is required' }).min(1),
  CLOUDINARY_API_KEY: z.string({ error: 'is required' }).min(1),
  CLOUDINARY_API_SECRET: z.string({ error: 'is required' }).min(1),
  CLOUDINARY_FOLDER: z.string().optional(),
});

function blank(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function issues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
}

/** The Cloudinary account named by `CLOUDINARY_URL` (cloudinary://KEY:SECRET@CLOUD). */
export function parseCloudinaryUrl(url: string): { cloudName: string; apiKey: string; apiSecret: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('CLOUDINARY_URL must look like cloudinary://KEY:SECRET@CLOUD');
  }
  if (parsed.protocol !== 'cloudinary:' || !parsed.hostname || !parsed.username || !parsed.password) {
    throw new Error('CLOUDINARY_URL must look like cloudinary://KEY:SECRET@CLOUD');
  }
  return {
    cloudName: parsed.hostname,
    apiKey: decodeURIComponent(parsed.username),
    apiSecret: decodeURIComponent(parsed.password),
  };
}

export function storageOptionsFromEnv(env: Env): StorageOptions {
  const errors: string[] = [];
  let local: LocalStorageOptions | undefined;
  let s3: S3StorageOptions | undefined;
  let cloudinary: CloudinaryStorageOptions | undefined;

  const signingSecret = secret(env, 'STORAGE_SIGNING_SECRET');
  if (signingSecret) {
    if (Buffer.byteLength(signingSecret) < 32)
      errors.push('STORAGE_SIGNING_SECRET must be at least 32 bytes');
    local = {
      root: blank(env.STORAGE_LOCAL_ROOT) ?? '.data/files',
      signingSecret,
      ...(blank(env.STORAGE_LOCAL_URL_BASE) ? { urlBase: env.STORAGE_LOCAL_URL_BASE } : {}),
    };
  }

  if (blank(env.S3_BUCKET)) {
    const parsed = s3EnvSchema.safeParse({
      S3_ENDPOINT: blank(env.S3_ENDPOINT),
      S3_PUBLIC_ENDPOINT: blank(env.S3_PUBLIC_ENDPOINT),
      S3_REGION: blank(env.S3_REGION),
      S3_BUCKET: env.S3_BUCKET,
      S3_ACCESS_KEY: blank(secret(env, 'S3_ACCESS_KEY')),
      S3_SECRET_KEY: blank(secret(env, 'S3_SECRET_KEY')),
      S3_PATH_STYLE: blank(env.S3_PATH_STYLE),
      S3_PART_SIZE_MB: blank(env.S3_PART_SIZE_MB),
    });
    if (parsed.success) {
      const v = parsed.data;
      s3 = {
        endpoint: v.S3_ENDPOINT,
        ...(v.S3_PUBLIC_ENDPOINT ? { publicEndpoint: v.S3_PUBLIC_ENDPOINT } : {}),
        region: v.S3_REGION,
        bucket: v.S3_BUCKET,
        accessKey: v.S3_ACCESS_KEY,
        secretKey: v.S3_SECRET_KEY,
        pathStyle: v.S3_PATH_STYLE,
        ...(v.S3_PART_SIZE_MB ? { partSize: v.S3_PART_SIZE_MB * 1024 * 1024 } : {}),
      };
    } else {
      errors.push(...issues(parsed.error));
    }
  }

  const cloudinaryUrl = blank(secret(env, 'CLOUDINARY_URL'));
  if (cloudinaryUrl || blank(env.CLOUDINARY_CLOUD_NAME)) {
    let fromUrl: Partial<Record<'cloudName' | 'apiKey' | 'apiSecret', string>> = {};
    if (cloudinaryUrl) {
      try {
        fromUrl = parseCloudinaryUrl(cloudinaryUrl);
      } catch (err) {
        errors.push((err as Error).message);
      }
    }
    const parsed = cloudinaryEnvSchema.safeParse({
      CLOUDINARY_CLOUD_NAME: blank(env.CLOUDINARY_CLOUD_NAME) ?? fromUrl.cloudName,
      CLOUDINARY_API_KEY: blank(env.CLOUDINARY_API_KEY) ?? fromUrl.apiKey,
      CLOUDINARY_API_SECRET: blank(secret(env, 'CLOUDINARY_API_SECRET')) ?? fromUrl.apiSecret,
      CLOUDINARY_FOLDER: env.CLOUDINARY_FOLDER,
    });
    if (parsed.success) {
      const v = parsed.data;
      cloudinary = {
        cloudName: v.CLOUDINARY_CLOUD_NAME,
        apiKey: v.CLOUDINARY_API_KEY,
        apiSecret: v.CLOUDINARY_API_SECRET,
        ...(v.CLOUDINARY_FOLDER !== undefined ? { folder: v.CLOUDINARY_FOLDER } : {}),
      };
    } else {
      errors.push(...issues(parsed.error));
    }
  }

  const configured: StorageType[] = [];
  if (local) configured.push('local');
  if (s3) configured.push('s3');
  if (cloudinary) configured.push('cloudinary');
  let defaultType: StorageType | undefined = configured[0];
  const requested = blank(env.STORAGE_DEFAULT);
  if (requested !== undefined) {
    if (!(STORAGE_TYPES as readonly string[]).includes(requested)) {
      errors.push(`STORAGE_DEFAULT must be one of ${STORAGE_TYPES.join(', ')}`);
    } else if (!configured.includes(requested as StorageType)) {
      errors.push(`STORAGE_DEFAULT is ${requested}, which is not configured`);
    } else {
      defaultType = requested as StorageType;
    }
  }
  if (configured.length === 0) {
    errors.push(
      'No storage configured: set STORAGE_SIGNING_SECRET (local), S3_BUCKET (s3) or CLOUDINARY_URL',
    );
  }
  if (errors.length > 0) throw new Error(`Invalid storage configuration:\n- ${errors.join('\n- ')}`);
  return { defaultType: defaultType as StorageType, local, s3, cloudinary };
}
