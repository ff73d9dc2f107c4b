import type { StorageType } from '@vault/contracts';
import {
  CloudinaryStorageDriver,
  type CloudinaryStorageOptions,
} from './cloudinary/cloudinary-storage.driver';
import { LocalStorageDriver, type LocalStorageOptions } from './local/local-storage.driver';
import { S3StorageDriver, type S3StorageOptions } from './s3/s3-storage.driver';
import { STORAGE_LABELS, type StorageDriver } from './storage-driver';

/** The drivers a deployment configures (any subset) and the one uploads use by default. */
export interface StorageOptions {
  local?: LocalStorageOptions;
  s3?: S3StorageOptions;
  cloudinary?: CloudinaryStorageOptions;
  defaultType: StorageType;
}

export interface StorageDrivers {
  drivers: Map<StorageType, StorageDriver>;
  defaultType: StorageType;
}

/** Builds the configured drivers; throws when `defaultType` is not one of them. */
export function createStorageDrivers(options: StorageOptions): StorageDrivers {
  const drivers = new Map<StorageType, StorageDriver>();
  if (options.local) drivers.set('local', new LocalStorageDriver(options.local));
  if (options.s3) drivers.set('s3', new S3StorageDriver(options.s3));
  if (options.cloudinary) drivers.set('cloudinary', new CloudinaryStorageDriver(options.cloudinary));
  if (!drivers.has(options.defaultType)) {
    const configured = [...drivers.keys()].join(', ') || 'none';
    throw new Error(
      `The default storage type "${options.defaultType}" is not configured (configured: ${configured})`,
    );
  }
  return { drivers, defaultType: options.defaultType };
}

/** Enough of an identifier to recognise it in a log, never the whole of it. */
function hint(value: string): string {
  return value.length <= 4 ? '****' : `${value.slice(0, 4)}****`;
}

/** What a URL points at, without any user:password part. */
function origin(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '(invalid URL)';
  }
}

/**
 * One line per configured driver, for the boot log. Secrets (signing secret, S3 secret key,
 * Cloudinary API secret) never appear; access key ids and API keys only by their first
 * characters.
 */
export function describeStorage(options: StorageOptions): string[] {
  const lines: string[] = [];
  const mark = (type: StorageType) => (type === options.defaultType ? ' (default)' : '');
  if (options.local) {
    const { root, urlBase } = options.local;
    lines.push(
      `local${mark('local')}: ${STORAGE_LABELS.local} at ${root}, blob URLs under ${urlBase ?? '/api/files/blob'}, signing secret set`,
    );
  }
  if (options.s3) {
    const s3 = options.s3;
    const publicPart = s3.publicEndpoint ? `, browsers use ${origin(s3.publicEndpoint)}` : '';
    lines.push(
      `s3${mark('s3')}: ${STORAGE_LABELS.s3} bucket ${s3.bucket} at ${origin(s3.endpoint)}${publicPart}, ` +
        `region ${s3.region}, ${s3.pathStyle ? 'path-style' : 'virtual-hosted'} URLs, access key ${hint(s3.accessKey)}`,
    );
  }
  if (options.cloudinary) {
    const c = options.cloudinary;
    lines.push(
      `cloudinary${mark('cloudinary')}: ${STORAGE_LABELS.cloudinary} cloud ${c.cloudName}, folder ${c.folder ?? 'vault'}, ` +
        `raw authenticated assets, API key ${hint(c.apiKey)}`,
    );
  }
  if (!options.local && !options.s3 && !options.cloudinary) lines.push('no storage configured');
  return lines;
}
