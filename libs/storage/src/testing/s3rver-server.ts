import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { resetAfter, StorageFaults } from './faults';
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
  /** Failures to plant (faults.ts): the next matching requests are refused or cut off. */
  faults: StorageFaults;
  /** Multipart uploads begun and neither completed nor aborted, by upload id (their key and parts). */
  multipartUploads: Map<string, S3rverMultipartUpload>;
  /** The store goes away: every open connection is cut and the port refuses connections. */
  stop(): Promise<void>;
  /** Back on the same port with everything it stored. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface S3rverMultipartUpload {
  key: string;
  parts: Map<number, { size: number; etag: string }>;
}

/** S3's smallest part but the last (EntityTooSmall below it). */
const MIN_PART_BYTES = 5 * 1024 * 1024;

/** The little of Koa's context the signature check needs. */
interface KoaContext {
  method: string;
  url: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: IncomingHttpHeaders;
  status: number;
  body: unknown;
  type: string;
  req: IncomingMessage | Readable;
  res: ServerResponse;
  response: { get(name: string): string };
  set(name: string, value: string): void;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<unknown>) => Promise<unknown>;

interface S3rverInstance {
  middleware: KoaMiddleware[];
  run(): Promise<{ port: number }>;
  listen(port: number, address: string): Promise<Server>;
  close(): Promise<void>;
  httpServer?: Server;
}

/** An S3 error answer (the XML S3 sends; `minio` reads the code from it). */
function s3Error(ctx: KoaContext, status: number, code: string, message: string): void {
  ctx.status = status;
  ctx.type = 'application/xml';
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code>` +
    `<Message>${message}</Message></Error>`;
}

function queryValue(ctx: KoaContext, name: string): string | undefined {
  const value = ctx.query[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(req: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * The multipart calls s3rver 3.7 lacks or does not check, as S3 documents them: ListParts,
 * AbortMultipartUpload, NoSuchUpload for an upload that was never begun or has ended (s3rver
 * would store the part anyway), and CompleteMultipartUpload's checks (InvalidPart: a listed part
 * missing or with another ETag; InvalidPartOrder; EntityTooSmall: a part but the last under
 * 5 MiB). The rest (storing parts, joining them) is s3rver's.
 */
function multipartMiddleware(
  directory: string,
  bucket: string,
  uploads: Map<string, S3rverMultipartUpload>,
): KoaMiddleware {
  const key = (ctx: KoaContext) => decodeURIComponent(ctx.path.replace(`/${bucket}/`, ''));
  return async (ctx, next) => {
    if (!ctx.path.startsWith(`/${bucket}/`)) return next();
    const uploadId = queryValue(ctx, 'uploadId');
    if (ctx.method === 'POST' && 'uploads' in ctx.query) {
      await next();
      const id = /<UploadId>([^<]+)<\/UploadId>/.exec(String(ctx.body))?.[1];
      if (ctx.status === 200 && id) uploads.set(id, { key: key(ctx), parts: new Map() });
      return;
    }
    if (uploadId === undefined) return next();
    const upload = uploads.get(uploadId);
    if (!upload || upload.key !== key(ctx)) {
      if (ctx.method === 'OPTIONS') return next();
      return s3Error(ctx, 404, 'NoSuchUpload', 'The specified upload does not exist.');
    }
    if (ctx.method === 'PUT') {
      const part = Number(queryValue(ctx, 'partNumber'));
      if (!Number.isInteger(part) || part < 1 || part > 10_000) {
        return s3Error(ctx, 400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000.');
      }
      // Counted here: s3rver answers before its part file is fully written, so a stat may come short.
      let size = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(null, chunk);
        },
      });
      const source = ctx.req;
      // A body cut off mid-way stores no part (s3rver would wait for its end for ever).
      source.on('error', () => counted.destroy());
      ctx.req = source.pipe(counted);
      await next();
      if (ctx.status !== 200) return;
      const etag = ctx.response.get('ETag').replace(/"/g, '');
      upload.parts.set(part, { size, etag });
      return;
    }
    if (ctx.method === 'GET') {
      const parts = [...upload.parts.entries()].sort(([a], [b]) => a - b);
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n<ListPartsResult><Bucket>' +
        bucket +
        `</Bucket><Key>${upload.key}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>` +
        parts
          .map(
            ([n, p]) =>
              `<Part><PartNumber>${n}</PartNumber><LastModified>${new Date().toISOString()}</LastModified>` +
              `<ETag>"${p.etag}"</ETag><Size>${p.size}</Size></Part>`,
          )
          .join('') +
        '</ListPartsResult>';
      return;
    }
    if (ctx.method === 'DELETE') {
      uploads.delete(uploadId);
      await rm(join(directory, bucket, '._S3rver_uploads', uploadId), { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === 'POST') {
      const body = await readBody(ctx.req);
      const listed = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
        number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1] ?? '')?.[1]),
        etag: (/<ETag>([^<]*)<\/ETag>/.exec(m[1] ?? '')?.[1] ?? '').replace(/"|&quot;|&#34;/g, ''),
      }));
      if (listed.length === 0)
        return s3Error(ctx, 400, 'MalformedXML', 'The XML you provided was not well-formed.');
      if (listed.some((part, i) => i > 0 && part.number <= (listed[i - 1]?.number ?? 0))) {
        return s3Error(ctx, 400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
      }
      for (const [i, part] of listed.entries()) {
        const stored = upload.parts.get(part.number);
        if (!stored || stored.etag !== part.etag) {
          return s3Error(ctx, 400, 'InvalidPart', 'One or more of the specified parts could not be found.');
        }
        if (i < listed.length - 1 && stored.size < MIN_PART_BYTES) {
          return s3Error(
            ctx,
            400,
            'EntityTooSmall',
            'Your proposed upload is smaller than the minimum allowed object size.',
          );
        }
      }
      ctx.req = Readable.from([body]);
      await next();
      if (ctx.status === 200) uploads.delete(uploadId);
      return;
    }
    return next();
  };
}

/** Plants the next matching fault of `faults` (faults.ts) on a request. */
function faultMiddleware(faults: StorageFaults): KoaMiddleware {
  return async (ctx, next) => {
    const fault = faults.take({ method: ctx.method, url: ctx.url, headers: ctx.headers });
    if (!fault) return next();
    if (fault.action === 'refuse') {
      return s3Error(ctx, fault.status ?? 503, 'ServiceUnavailable', 'Please reduce your request rate.');
    }
    resetAfter(ctx.req as IncomingMessage, fault.afterBytes ?? 0);
    return next();
  };
}
/**
 * Node closes an idle keep-alive socket after 5 s; a client that picks that socket from its pool at
 * the same moment gets ECONNRESET on a request it never sent (seen in CI on a busy machine). S3
 * keeps idle connections far longer than clients do, so the stand-in does too.
 */
function patientKeepAlive(server: Server | undefined): void {
  if (!server) return;
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
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
  const faults = new StorageFaults();
  const multipartUploads = new Map<string, S3rverMultipartUpload>();

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
  // Faults first (a store that is down answers nothing else), the multipart checks last.
  const signatureChecks = options.verifySignatures !== false ? 1 : 0;
  server.middleware.splice(signatureChecks, 0, multipartMiddleware(directory, bucket, multipartUploads));
  server.middleware.unshift(faultMiddleware(faults));

  const address = await server.run();
  patientKeepAlive(server.httpServer);
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    server.httpServer?.closeAllConnections?.();
    await server.close();
  };
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    accessKey: S3RVER_ACCESS_KEY,
    secretKey: S3RVER_SECRET_KEY,
    region: 'us-east-1',
    bucket,
    refused,
    faults,
    multipartUploads,
    stop,
    async start() {
      if (running) return;
      server.httpServer = await server.listen(address.port, '127.0.0.1');
      patientKeepAlive(server.httpServer);
      running = true;
    },
    async close() {
      await stop();
      if (ownDirectory) await rm(directory, { recursive: true, force: true });
    },
  };
}
