import { utf8Bytes } from '@vault/server-kit';
import type { FastifyInstance } from 'fastify';

/** Below this, a body's encoding costs too little to be worth the check. */
export const STRING_BODY_MIN_CHARS = 16 * 1024;

/**
 * Large serialised answers (the whole notes list: about 1.4 MB of JSON for 1,000 notes) leave as
 * bytes made by utf8Bytes: the same bytes the socket would have written, without Node 20's slow
 * UTF-8 encoder (bench/README.md "Load").
 */
export function registerStringBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (_request, _reply, payload) =>
    typeof payload === 'string' && payload.length >= STRING_BODY_MIN_CHARS ? utf8Bytes(payload) : payload,
  );
}
