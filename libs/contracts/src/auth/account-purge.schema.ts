import { z } from 'zod';
import { uuidV4 } from '../common/formats';
import { FILL_ALL_FIELDS, strictBody } from '../common/validation';
import { authKeySchema } from './auth-bodies.schema';

/** DELETE /api/auth/account: the password, turned into authKey on the device. */
export const deleteAccountBodySchema = strictBody({
  authKey: z.string({ error: FILL_ALL_FIELDS }).min(1, FILL_ALL_FIELDS).pipe(authKeySchema),
});
export type DeleteAccountBody = z.output<typeof deleteAccountBodySchema>;

/**
 * Account purge (docs/architecture.md "Services and what they own", BullMQ queues: jobs belong to
 * their producer). Auth deletes the account and queues one job per other data owner; each owner
 * deletes everything of that user it holds. Jobs retry with backoff and purges are idempotent, so a
 * replay is harmless.
 */
export const ACCOUNT_PURGE_QUEUES = {
  /** Consumed by the notes service: every note of the user. */
  notes: 'account-purge-notes',
  /** Consumed by the files service: every file row (pending too) and its stored object. */
  files: 'account-purge-files',
} as const;
export type AccountPurgeQueue = (typeof ACCOUNT_PURGE_QUEUES)[keyof typeof ACCOUNT_PURGE_QUEUES];

export const ACCOUNT_PURGE_JOB = 'account-purge';

export const accountPurgeJobSchema = z.object({
  userId: uuidV4,
  /** ISO 8601: when the account was deleted. */
  requestedAt: z.iso.datetime(),
});
export type AccountPurgeJob = z.output<typeof accountPurgeJobSchema>;
