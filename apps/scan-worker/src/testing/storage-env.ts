/** The least storage configuration the worker accepts: the local disk (its signing secret). */
export const STORAGE_ENV: Record<string, string> = {
  STORAGE_SIGNING_SECRET: 'scan-worker-unit-tests-signing-secret-0123456789',
};
