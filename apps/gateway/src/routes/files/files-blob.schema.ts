import { z } from 'zod';

/**
 * The signed blob URL, for the OpenAPI document only: the files service checks the signature,
 * the gateway streams the request through unchanged (FilesBlobProxy).
 */

/** The path of a signed blob URL: the object key, `<ownerId>/<fileId>`. */
export const blobKeyParamSchema = z.object({
  objectKey: z
    .string()
    .describe('<ownerId>/<fileId> (a slash inside): the path exactly as the signed URL gives it'),
});

/** The signed query of a blob URL, exactly as the files service signed it. */
export const blobQuerySchema = z.object({
  op: z.enum(['put', 'get']).describe('The one operation the URL is signed for'),
  exp: z.string().describe('Expiry, Unix seconds'),
  len: z.string().optional().describe('Uploads: the exact byte length signed'),
  sig: z.string().describe('HMAC-SHA256, hex'),
});
