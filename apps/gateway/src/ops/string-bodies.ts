import { RawJson } from '@vault/contracts';
import { rawJsonBytes, utf8Bytes } from '@vault/server-kit';
import type { FastifyInstance } from 'fastify';

/** Below this, a body's encoding costs too little to be worth the check. */
export const STRING_BODY_MIN_CHARS = 16 * 1024;

/**
 * How answers become bytes. A RawJson answer (the notes list, whose pages arrive from the notes
 * service as text) is sent as its text's bytes, never parsed and serialised again; anything else is
 * JSON.stringify'd, as Fastify's own serialiser does. Large serialised answers (the whole notes
 * list: about 1.4 MB of JSON for 1,000 notes) then leave as bytes made by utf8Bytes: the same
 * bytes the socket would have written, without Node 20's slow UTF-8 encoder (bench/README.md
 * "Load").
 */
export function registerStringBodies(fastify: FastifyInstance): void {
  // Fastify takes the bytes as they are (its own serialiser returns a string; both are sent).
  fastify.setReplySerializer((payload) =>
    payload instanceof RawJson ? (rawJsonBytes(payload) as unknown as string) : JSON.stringify(payload),
  );
  fastify.addHook('onSend', async (_request, _reply, payload) =>
    typeof payload === 'string' && payload.length >= STRING_BODY_MIN_CHARS ? utf8Bytes(payload) : payload,
  );
}
