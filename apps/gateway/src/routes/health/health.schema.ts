import { z } from 'zod';

/** The answer of GET /api/health: the gateway's view of every service it depends on. */
export const serviceStateSchema = z.enum(['ok', 'down']);
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  services: z.record(z.string(), serviceStateSchema),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const liveResponseSchema = z.object({ status: z.literal('ok') });
export type LiveResponse = z.infer<typeof liveResponseSchema>;
