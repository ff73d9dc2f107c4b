import type { Writable } from 'node:stream';

/** The part of the `cloudinary` v2 SDK the driver uses (typed here: the SDK's own option types are narrower than what it accepts). */
export interface CloudinarySdk {
  config(): { upload_prefix?: string; [key: string]: unknown };
  uploader: {
    upload_stream(
      options: Record<string, unknown>,
      callback: (error?: CloudinaryApiError, result?: CloudinaryUploadResult) => void,
    ): Writable;
    destroy(publicId: string, options: Record<string, unknown>): Promise<{ result?: string }>;
  };
  api: {
    resource(publicId: string, options: Record<string, unknown>): Promise<{ bytes?: number }>;
  };
  utils: {
    api_sign_request(params: Record<string, string | number>, apiSecret: string): string;
    private_download_url(publicId: string, format: string, options: Record<string, unknown>): string;
    api_url(action: string, options: Record<string, unknown>): string;
  };
}

export interface CloudinaryApiError {
  message?: string;
  http_code?: number;
  name?: string;
}

export interface CloudinaryUploadResult {
  public_id: string;
  /** The asset's size; for a chunk of a chunked upload that is not the last, the bytes received so far. */
  bytes: number;
  /** `false` in the answer to a chunk of a chunked upload that is not the last one. */
  done?: boolean;
  /** Set (with the stored asset's details) when `overwrite: false` met an existing public id. */
  existing?: boolean;
  [key: string]: unknown;
}

let loaded: CloudinarySdk | undefined;

/**
 * The SDK, loaded on first use. It reads `CLOUDINARY_URL` (and from it `upload_prefix`,
 * which also decides http or https for every later request) once, when its modules are
 * first required; loading it lazily lets tests and local setups set
 * `CLOUDINARY_URL=cloudinary://KEY:SECRET@cloud?upload_prefix=http://127.0.0.1:PORT`
 * before any driver call.
 */
export function loadCloudinarySdk(): CloudinarySdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy, see above
  loaded ??= (require('cloudinary') as { v2: CloudinarySdk }).v2;
  return loaded;
}
