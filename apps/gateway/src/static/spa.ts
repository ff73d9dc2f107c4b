import { existsSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { isApiPath } from '../security/security-headers';
import { staticFileFor } from './static-file';

/** The built-in page served when no web app is built (apps/gateway/static). */
export const PLACEHOLDER_ROOT = resolve(__dirname, '..', '..', 'static');

/** WEB_ROOT when it holds an index.html, else the placeholder folder. */
export function resolveWebRoot(webRoot: string | undefined, logger: Logger): string {
  if (webRoot) {
    const root = resolve(webRoot);
    if (existsSync(join(root, 'index.html'))) return root;
    logger.warn({ webRoot: root }, 'WEB_ROOT has no index.html; serving the placeholder page');
  }
  return PLACEHOLDER_ROOT;
}

/** Build tools put content hashes in asset names: those can be cached for good. */
const HASHED_ASSET = /[.-][A-Za-z0-9_]{8,}\.(?:js|css|woff2?|png|svg|jpg|webp|wasm)$/;

/**
 * The web app: files under the root as they are; any other GET/HEAD path without a file
 * extension is a client route and gets index.html. /api paths never fall through to it.
 */
export async function registerSpa(fastify: FastifyInstance, root: string): Promise<void> {
  await fastify.register(fastifyStatic, { root, serve: false, dotfiles: 'deny', index: false });
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isApiPath(request.url)) return reply.callNotFound();
    const file = staticFileFor(root, request.url);
    if (file) {
      return HASHED_ASSET.test(file)
        ? reply.sendFile(file, { maxAge: 31_536_000_000, immutable: true })
        : reply.header('cache-control', 'no-cache').sendFile(file, { cacheControl: false });
    }
    const path = request.url.split('?')[0] ?? '/';
    if (extname(path) !== '') return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  };
  fastify.route({ method: ['GET', 'HEAD'], url: '/', handler });
  fastify.route({ method: ['GET', 'HEAD'], url: '/*', handler });
}
