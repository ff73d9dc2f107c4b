import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifySigV4 } from './sigv4-verifier';

/** s3rver's credentials (fixed by s3rver). */
export const S3RVER_ACCESS_KEY = 'S3RVER';
export const S3RVER_SECRET_KEY = 'S3RVER';

export interface S3rverOptions {
  /** Where s3rver keeps its files (default: a new temporary folder, removed on close). */
  directory?: string;
  /** Default: a free port. */
  port?: number;
  /** Default 'vault-test'. */
  bucket?: string;
  /**
   * Check SigV4 signatures (presigned URLs and signed requests) and answer 403
   * SignatureDoesNotMatch on a mismatch and AccessDenied to unsigned requests (a private
   * bucket), which s3rver alone does not do. Default true.
   */
  verifySignatures?: boolean;
  /** Origins allowed by the bucket's CORS rule (default '*'). */
  corsOrigins?: string[];
}

export interface S3rverHandle {
  endpoint: string;
  accessKey: typeof S3RVER_ACCESS_KEY;
  secretKey: typeof S3RVER_SECRET_KEY;
  region: 'us-east-1';
  bucket: string;
  /** Requests refused by the signature check, newest last (method, path, reason). */
  refused: { method: string; path: string; reason: string }[];
  close(): Promise<void>;
}

/** The little of Koa's context the signature check needs. */
interface KoaContext {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  status: number;
  body: unknown;
  type: string;
  set(name: string, value: string): void;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<unknown>) => Promise<unknown>;

interface S3rverInstance {
  middleware: KoaMiddleware[];
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

function corsXml(origins: string[]): string {
  const allowed = origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('');
  return (
    '<CORSConfiguration><CORSRule>' +
    allowed +
    '<AllowedMethod>GET</AllowedMethod><AllowedMethod>PUT</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>' +
    '<AllowedHeader>*</AllowedHeader>' +
    '<ExposeHeader>ETag</ExposeHeader><ExposeHeader>Content-Length</ExposeHeader><ExposeHeader>Content-Range</ExposeHeader>' +
    '<MaxAgeSeconds>600</MaxAgeSeconds>' +
    '</CORSRule></CORSConfiguration>'
  );
}

/**
 * s3rver (an S3 API in Node) on 127.0.0.1 with one bucket, CORS open to browser pages on
 * other origins (presigned PUT/GET with Content-Type), path-style, region us-east-1.
 */
export async function startS3rver(options: S3rverOptions = {}): Promise<S3rverHandle> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- s3rver ships no types
  const S3rver = require('s3rver') as S3rverClass;
  const ownDirectory = options.directory === undefined;
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'vault-s3rver-')));
  const bucket = options.bucket ?? 'vault-test';
  const refused: S3rverHandle['refused'] = [];

  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [corsXml(options.corsOrigins ?? ['*'])] }],
  });

  if (options.verifySignatures !== false) {
    const verify: KoaMiddleware = async (ctx, next) => {
      // CORS preflights are never signed (S3 does not authenticate them either).
      if (ctx.method !== 'OPTIONS') {
        const result = verifySigV4({ method: ctx.method, url: ctx.url, headers: ctx.headers }, (key) =>
          key === S3RVER_ACCESS_KEY ? S3RVER_SECRET_KEY : undefined,
        );
        if (!result.ok) {
          // The bucket is private: unsigned requests are refused like on S3, MinIO and R2.
          const code = result.reason === 'not SigV4-signed' ? 'AccessDenied' : 'SignatureDoesNotMatch';
          refused.push({ method: ctx.method, path: ctx.url.split('?')[0] ?? '', reason: result.reason });
          ctx.status = 403;
          ctx.type = 'application/xml';
          ctx.set('Access-Control-Allow-Origin', '*');
          ctx.body =
            `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code>` +
            `<Message>Request refused by the test server's SigV4 check: ${result.reason}</Message></Error>`;
          return;
        }
      }
      return next();
    };
    server.middleware.unshift(verify);
  }

  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    accessKey: S3RVER_ACCESS_KEY,
    secretKey: S3RVER_SECRET_KEY,
    region: 'us-east-1',
    bucket,
    refused,
    async close() {
      server.httpServer?.closeAllConnections?.();
      await server.close();
      if (ownDirectory) await rm(directory, { recursive: true, force: true });
    },
  };
}
