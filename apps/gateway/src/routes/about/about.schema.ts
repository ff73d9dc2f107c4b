import { z } from 'zod';

/**
 * The answer of GET /api/about: which build of the gateway answers (the testing dashboard's CI/CD
 * status, a self-hoster's support report). Nothing secret: a version, a commit id, a time and the
 * environment's name.
 */
export const aboutResponseSchema = z.object({
  version: z.string().nullable(),
  commit: z.string().nullable(),
  builtAt: z.string().nullable(),
  environment: z.string().nullable(),
});
export type AboutResponse = z.infer<typeof aboutResponseSchema>;
