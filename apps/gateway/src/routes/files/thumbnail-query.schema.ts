import { strictBody } from '@vault/contracts';
import { z } from 'zod';

const optionalInt = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be between 1 and ${max}`)
    .max(max, `${name} must be between 1 and ${max}`)
    .optional();

/**
 * `GET /api/files/{id}/optimized?width=&height=&quality=&format=`: the spec's image-size query.
 * The answer is the sealed thumbnail made on the device at upload (the server cannot resize an
 * encrypted picture), so the values are checked and then ignored; unknown parameters are a 400.
 */
export const thumbnailQuerySchema = strictBody({
  width: optionalInt('width', 4096),
  height: optionalInt('height', 4096),
  quality: optionalInt('quality', 100),
  format: z
    .string({ error: 'format must be text' })
    .regex(/^[a-z0-9]{1,10}$/, 'format must be an image format name (webp, jpeg, png...)')
    .optional(),
});
export type ThumbnailQuery = z.output<typeof thumbnailQuerySchema>;
