#!/usr/bin/env node
// `npm run migrate`: runs every service's migrations (built output) against DATABASE_URL.
import { SERVICES, localEnv, prepare } from './lib/stack.mjs';
import { log } from './lib/util.mjs';

const env = localEnv();
await prepare(env);
log(
  `migrated: ${SERVICES.filter((s) => s.migrate)
    .map((s) => s.name)
    .join(', ')}`,
);
