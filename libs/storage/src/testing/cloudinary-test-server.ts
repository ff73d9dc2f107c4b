import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { resetAfter, StorageFaults } from './faults';

/**
 * A Cloudinary stand-in that speaks the part of the protocol the storage driver and the
 * browser use, and checks it the way Cloudinary documents it:
 *
 * - `POST /v1_1/<cloud>/<resource_type>/upload` (multipart): signed parameters, `api_key`,
 *   `timestamp` at most an hour old, `file` streamed to disk; `overwrite` false (0) keeps an
 *   existing asset and answers it with `existing: true`, as Cloudinary does; an empty file
 *   is refused (400 "Empty file").
 * - The same upload as a CHUNKED upload (the SDK's `upload_chunked_stream`; support.cloudinary.com
 *   "Guidelines for self implementing chunked upload to Cloudinary"): every chunk a signed
 *   upload of its own with the same `X-Unique-Upload-Id` and a `Content-Range: bytes
 *   first-last/total` (total `-1` while unknown, as the SDK sends it) that the file part must
 *   match; the first chunk must come first, every chunk but the last must be at least 5 MiB,
 *   and the last (the one that reaches `total`) must come after all the others have been
 *   answered (a gap is refused, 400). Chunks before the last answer `{done: false, bytes}`
 *   (the bytes received so far); the last answers the asset. The same range sent again
 *   replaces the earlier chunk.
 * - `POST /v1_1/<cloud>/<resource_type>/destroy`: signed the same way.
 * - `GET /v1_1/<cloud>/<resource_type>/download?...`: the Download API URL made by
 *   `utils.private_download_url`: signature, `api_key`, `expires_at` (or the timestamp's
 *   hour); honours `Range`.
 * - `GET /v1_1/<cloud>/resources/<resource_type>/<type>/<public_id>`: the Admin API with
 *   HTTP Basic auth (api_key:api_secret).
 *
 * Signatures follow the SDK's `api_sign_request`: the parameters except file, api_key,
 * resource_type, cloud_name and signature, without empty values, sorted by name, joined
 * as `k=v&k=v` (with `&` inside a value as `%26`), then SHA-1 (or SHA-256) of that string
 * followed by the API secret, in hex. Failures answer 401 `{error: {message}}`.
 */
export interface CloudinaryTestServerOptions {
  cloudName: string;
  apiKey: string;
  apiSecret: string;
  /** Default: a free port. */
  port?: number;
  /** Where uploaded bytes go (default: a new temporary folder, removed on close). */
  directory?: string;
  signatureAlgorithm?: 'sha1' | 'sha256';
  /** Clock in milliseconds (default Date.now). */
  now?: () => number;
}

export interface CloudinaryTestAsset {
  publicId: string;
  resourceType: string;
  /** Delivery type: upload, private or authenticated. */
  type: string;
  bytes: number;
  version: number;
  createdAt: string;
  /** Where the bytes are on disk. */
  path: string;
}

export interface CloudinaryTestServer {
  /** The `upload_prefix` (http://127.0.0.1:PORT). */
  url: string;
  /** The value for CLOUDINARY_URL, pointing the SDK at this server. */
  cloudinaryUrl: string;
  /** Stored assets by `${resource_type}/${type}/${public_id}` (the Admin API path). */
  objects: Map<string, CloudinaryTestAsset>;
  /** Every request answered, newest last (method, path without query, status). */
  requests: { method: string; path: string; status: number }[];
  /** Behaviour switches tests may flip while the server runs. */
  settings: {
    /** Answer `Range` on downloads with 206 (default true); false sends the whole object, 200. */
    honourRange: boolean;
  };
  /** Failures to plant (faults.ts): the next matching requests are refused or cut off. */
  faults: StorageFaults;
  /** Chunked uploads begun and not finished: their X-Unique-Upload-Id, public id and chunks' byte ranges. */
  chunkedUploads(): { uploadId: string; publicId: string; ranges: [number, number][] }[];
  close(): Promise<void>;
}

/** Every chunk of a chunked upload but the last: at least this many bytes. */
const MIN_CHUNK_BYTES = 5 * 1024 * 1024;

/** Cloudinary: "Stale request - reported time is ... which is more than 1 hour ago". */
const SIGNATURE_MAX_AGE_SECONDS = 3600;
const UNSIGNED_PARAMS = new Set(['file', 'api_key', 'resource_type', 'cloud_name', 'signature']);

const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Range, X-Requested-With, X-Unique-Upload-Id, Content-Range',
  'Access-Control-Expose-Headers': 'Content-Length, Content-Range, Accept-Ranges',
  'Access-Control-Max-Age': '600',
};

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The SDK's `api_string_to_sign` (signature version 2). */
export function cloudinaryStringToSign(params: Record<string, string>): string {
  return Object.entries(params)
    .filter(([key, value]) => !UNSIGNED_PARAMS.has(key) && value !== '')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`.replace(/&/g, '%26'))
    .join('&');
}

function isTrue(value: string | undefined): boolean {
  return value === '1' || value === 'true';
}

export async function startCloudinaryTestServer(
  options: CloudinaryTestServerOptions,
): Promise<CloudinaryTestServer> {
  const { cloudName, apiKey, apiSecret } = options;
  const algorithm = options.signatureAlgorithm ?? 'sha1';
  const now = options.now ?? Date.now;
  const ownDirectory = options.directory === undefined;
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'vault-cloudinary-')));
  await mkdir(join(directory, 'incoming'), { recursive: true });
  await mkdir(join(directory, 'assets'), { recursive: true });
  const objects = new Map<string, CloudinaryTestAsset>();
  const requests: CloudinaryTestServer['requests'] = [];
  const settings: CloudinaryTestServer['settings'] = { honourRange: true };
  const faults = new StorageFaults();
  /** Chunked uploads in progress: the first chunk's signed identity and each chunk's file. */
  const chunked = new Map<
    string,
    { publicId: string; type: string; chunks: Map<number, { last: number; path: string }> }
  >();
  let version = 1_700_000_000;

  const checkSignature = (params: Record<string, string>) => {
    if (params.api_key !== apiKey) throw new HttpFailure(401, `Invalid api_key ${params.api_key ?? ''}`);
    const signature = params.signature ?? '';
    const toSign = cloudinaryStringToSign(params);
    const expected = createHash(algorithm)
      .update(toSign + apiSecret)
      .digest();
    const given = /^[0-9a-f]+$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new HttpFailure(401, `Invalid Signature ${signature}. String to sign - '${toSign}'.`);
    }
  };
  const checkTimestamp = (params: Record<string, string>) => {
    const timestamp = Number(params.timestamp);
    if (!params.timestamp || !Number.isInteger(timestamp)) {
      throw new HttpFailure(401, 'Missing required parameter - timestamp');
    }
    if (Math.floor(now() / 1000) - timestamp > SIGNATURE_MAX_AGE_SECONDS) {
      const reported = new Date(timestamp * 1000).toISOString();
      throw new HttpFailure(
        401,
        `Stale request - reported time is ${reported} which is more than 1 hour ago`,
      );
    }
  };

  const assetJson = (asset: CloudinaryTestAsset) => ({
    asset_id: createHash('md5').update(`${asset.type}/${asset.publicId}`).digest('hex'),
    public_id: asset.publicId,
    version: asset.version,
    resource_type: asset.resourceType,
    type: asset.type,
    created_at: asset.createdAt,
    bytes: asset.bytes,
    url: `${baseUrl}/${cloudName}/${asset.resourceType}/${asset.type}/v${asset.version}/${asset.publicId}`,
    secure_url: `${baseUrl}/${cloudName}/${asset.resourceType}/${asset.type}/v${asset.version}/${asset.publicId}`,
  });

  /** Fields and (optionally) one `file` streamed to disk. */
  const readForm = (req: IncomingMessage) =>
    new Promise<{ fields: Record<string, string>; file?: { path: string; bytes: number } }>(
      (resolve, reject) => {
        let parser: busboy.Busboy;
        try {
          parser = busboy({ headers: req.headers, limits: { files: 1, fields: 100, fieldSize: 1 << 20 } });
        } catch {
          reject(new HttpFailure(400, 'Expected a multipart or urlencoded body'));
          return;
        }
        const fields: Record<string, string> = {};
        let filePromise: Promise<{ path: string; bytes: number }> | undefined;
        let fileStream: (NodeJS.ReadableStream & { destroy(err?: Error): void }) | undefined;
        parser.on('field', (name, value) => {
          fields[name] = value;
        });
        parser.on('file', (name, stream) => {
          if (name !== 'file' || filePromise) {
            stream.resume();
            return;
          }
          fileStream = stream;
          const path = join(directory, 'incoming', randomBytes(8).toString('hex'));
          let bytes = 0;
          const count = new Transform({
            transform(chunk: Buffer, _encoding, callback) {
              bytes += chunk.length;
              callback(null, chunk);
            },
          });
          filePromise = pipeline(stream, count, createWriteStream(path)).then(
            () => ({ path, bytes }),
            async (err: unknown) => {
              await rm(path, { force: true });
              throw err;
            },
          );
          filePromise.catch(() => undefined);
        });
        parser.on('error', (err: Error) => reject(new HttpFailure(400, err.message)));
        parser.on('close', () => {
          if (!filePromise) return resolve({ fields });
          filePromise.then((file) => resolve({ fields, file }), reject);
        });
        // A client that goes away mid-body (the driver cutting an oversized upload): nothing is kept.
        req.on('close', () => {
          if (req.complete) return;
          fileStream?.destroy(new Error('Upload aborted'));
          parser.destroy();
          reject(new HttpFailure(400, 'Upload aborted'));
        });
        req.pipe(parser);
      },
    );

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const json = JSON.stringify(body);
    res.writeHead(status, {
      ...CORS_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(json),
    });
    res.end(json);
  };

  /**
   * One chunk of a chunked upload: kept beside the others; the last one (when every byte before
   * it has arrived) joins them into the file that is then stored like a whole upload.
   */
  const takeChunk = async (
    req: IncomingMessage,
    uploadId: string,
    fields: Record<string, string>,
    file: { path: string; bytes: number },
  ): Promise<{ path: string; bytes: number } | { done: false; bytes: number }> => {
    const range = /^bytes (\d+)-(\d+)\/(\d+|-1)$/.exec(String(req.headers['content-range'] ?? ''));
    if (!range) throw new HttpFailure(400, 'Invalid Content-Range header');
    const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
    if (last < first || (total !== -1 && last >= total) || file.bytes !== last - first + 1) {
      throw new HttpFailure(400, `Chunk of ${file.bytes} bytes does not match Content-Range ${range[0]}`);
    }
    const publicId = fields.public_id ?? '';
    const type = fields.type || 'upload';
    let upload = chunked.get(uploadId);
    if (!upload) {
      if (first !== 0) throw new HttpFailure(400, 'The first chunk of a chunked upload must arrive first');
      upload = { publicId, type, chunks: new Map() };
      chunked.set(uploadId, upload);
    } else if (upload.publicId !== publicId || upload.type !== type) {
      throw new HttpFailure(400, 'Chunks of one upload must carry the same parameters');
    }
    const isLast = total !== -1 && last + 1 === total;
    if (!isLast && file.bytes < MIN_CHUNK_BYTES) {
      throw new HttpFailure(400, `Chunks other than the last must be at least ${MIN_CHUNK_BYTES} bytes`);
    }
    const earlier = upload.chunks.get(first);
    if (earlier) await rm(earlier.path, { force: true });
    upload.chunks.set(first, { last, path: file.path });
    const ordered = [...upload.chunks.entries()].sort(([a], [b]) => a - b);
    if (!isLast) {
      const bytes = ordered.reduce((sum, [from, c]) => sum + c.last - from + 1, 0);
      return { done: false, bytes };
    }
    let next = 0;
    for (const [from, c] of ordered) {
      if (from !== next) {
        upload.chunks.delete(first);
        await rm(file.path, { force: true });
        throw new HttpFailure(400, `The last chunk arrived before the chunk at byte ${next}`);
      }
      next = c.last + 1;
    }
    // Every chunk is here: one file, as if it had come whole.
    const path = join(directory, 'incoming', randomBytes(8).toString('hex'));
    const out = createWriteStream(path);
    for (const [, c] of ordered) await pipeline(createReadStream(c.path), out, { end: false });
    await new Promise<void>((resolve, reject) =>
      out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
    for (const [, c] of ordered) await rm(c.path, { force: true });
    chunked.delete(uploadId);
    return { path, bytes: total };
  };

  const upload = async (req: IncomingMessage, res: ServerResponse, resourceType: string) => {
    const form = await readForm(req);
    const { fields } = form;
    let { file } = form;
    try {
      checkSignature(fields);
      checkTimestamp(fields);
      if (!file) throw new HttpFailure(400, 'Missing required parameter - file');
      // Cloudinary refuses empty uploads (Vault objects never are: each holds at least one 16-byte tag).
      if (file.bytes === 0) throw new HttpFailure(400, 'Empty file');
      if (resourceType !== 'raw') throw new HttpFailure(400, 'This test server stores raw resources only');
      const uploadId = req.headers['x-unique-upload-id'];
      if (typeof uploadId === 'string') {
        const taken = await takeChunk(req, uploadId, fields, file);
        if ('done' in taken) {
          return send(res, 200, {
            done: false,
            bytes: taken.bytes,
            public_id: fields.public_id,
            resource_type: resourceType,
            type: fields.type || 'upload',
          });
        }
        file = taken;
      }
      const type = fields.type || 'upload';
      const publicId = fields.public_id || randomBytes(10).toString('hex');
      const id = `${resourceType}/${type}/${publicId}`;
      const existing = objects.get(id);
      // Signed uploads overwrite by default; overwrite=false keeps the stored asset and says so.
      if (existing && fields.overwrite !== undefined && !isTrue(fields.overwrite)) {
        await rm(file.path, { force: true });
        return send(res, 200, { ...assetJson(existing), existing: true });
      }
      const path = join(directory, 'assets', randomBytes(8).toString('hex'));
      await rename(file.path, path);
      if (existing) await rm(existing.path, { force: true });
      const asset: CloudinaryTestAsset = {
        publicId,
        resourceType,
        type,
        bytes: file.bytes,
        version: ++version,
        createdAt: new Date(now()).toISOString(),
        path,
      };
      objects.set(id, asset);
      send(res, 200, { ...assetJson(asset), existing: false, original_filename: 'file' });
    } catch (err) {
      // A chunk kept for its upload is not this request's to remove.
      const kept = [...chunked.values()].some((u) =>
        [...u.chunks.values()].some((c) => c.path === file?.path),
      );
      if (file && !kept) await rm(file.path, { force: true });
      throw err;
    }
  };

  const destroy = async (req: IncomingMessage, res: ServerResponse, resourceType: string) => {
    const { fields, file } = await readForm(req);
    if (file) await rm(file.path, { force: true });
    checkSignature(fields);
    checkTimestamp(fields);
    if (!fields.public_id) throw new HttpFailure(400, 'Missing required parameter - public_id');
    const id = `${resourceType}/${fields.type || 'upload'}/${fields.public_id}`;
    const asset = objects.get(id);
    if (!asset) return send(res, 200, { result: 'not found' });
    objects.delete(id);
    await rm(asset.path, { force: true });
    send(res, 200, { result: 'ok' });
  };

  const download = async (
    req: IncomingMessage,
    res: ServerResponse,
    resourceType: string,
    query: URLSearchParams,
  ) => {
    const params: Record<string, string> = {};
    for (const [key, value] of query) {
      if (key in params) throw new HttpFailure(400, `Repeated parameter ${key}`);
      params[key] = value;
    }
    checkSignature(params);
    const nowSeconds = Math.floor(now() / 1000);
    if (params.expires_at !== undefined) {
      if (!/^\d+$/.test(params.expires_at) || Number(params.expires_at) <= nowSeconds) {
        throw new HttpFailure(401, 'The download URL has expired');
      }
    } else {
      checkTimestamp(params);
    }
    const publicId = params.format ? `${params.public_id}.${params.format}` : (params.public_id ?? '');
    const asset = objects.get(`${resourceType}/${params.type || 'upload'}/${publicId}`);
    if (!asset) throw new HttpFailure(404, `Resource not found - ${publicId}`);

    const headers: Record<string, string | number> = {
      ...CORS_HEADERS,
      'Content-Type': 'application/octet-stream',
      'Accept-Ranges': 'bytes',
    };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (req.headers.range && range && settings.honourRange) {
      const size = asset.bytes;
      let start: number;
      let end: number;
      if (range[1] === '') {
        start = Math.max(0, size - Number(range[2]));
        end = size - 1;
      } else {
        start = Number(range[1]);
        end = range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      }
      if (start >= size || end < start) {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}` });
        res.end();
        return;
      }
      res.writeHead(206, {
        ...headers,
        'Content-Range': `bytes ${start}-${end}/${size}`,
        'Content-Length': end - start + 1,
      });
      await pipeline(createReadStream(asset.path, { start, end }), res);
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': asset.bytes });
    await pipeline(createReadStream(asset.path), res);
  };

  const resource = (req: IncomingMessage, res: ServerResponse, rest: string) => {
    const expected = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`;
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
      throw new HttpFailure(401, 'Invalid credentials');
    }
    // rest: <resource_type>/<type>/<public_id, URL-encoded by the SDK (slashes as %2F)>
    const [resourceType, type, ...idParts] = rest.split('/');
    const publicId = decodeURIComponent(idParts.join('/'));
    const asset = objects.get(`${resourceType}/${type}/${publicId}`);
    if (!asset) throw new HttpFailure(404, `Resource not found - ${publicId}`);
    send(res, 200, { ...assetJson(asset), format: '', access_mode: 'public' });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://cloudinary.invalid');
    const prefix = `/v1_1/${cloudName}/`;
    const fault = faults.take({ method: req.method ?? '', url: req.url ?? '/', headers: req.headers });
    if (fault?.action === 'refuse') {
      throw new HttpFailure(fault.status ?? 503, 'Service unavailable (a fault planted by the test)');
    }
    if (fault?.action === 'reset') resetAfter(req, fault.afterBytes ?? 0);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }
    if (!url.pathname.startsWith(prefix)) {
      throw new HttpFailure(url.pathname.startsWith('/v1_1/') ? 401 : 404, 'Invalid cloud_name');
    }
    const rest = url.pathname.slice(prefix.length);
    const action = /^([a-z]+)\/(upload|destroy|download)$/.exec(rest);
    if (req.method === 'POST' && action?.[2] === 'upload') return upload(req, res, action[1] as string);
    if (req.method === 'POST' && action?.[2] === 'destroy') return destroy(req, res, action[1] as string);
    if (req.method === 'GET' && action?.[2] === 'download') {
      return download(req, res, action[1] as string, url.searchParams);
    }
    if (req.method === 'GET' && rest.startsWith('resources/')) {
      return resource(req, res, rest.slice('resources/'.length));
    }
    throw new HttpFailure(404, 'Not found');
  };

  const server = createServer((req, res) => {
    handle(req, res)
      .catch((err: unknown) => {
        const status = err instanceof HttpFailure ? err.status : 500;
        const message = err instanceof Error ? err.message : String(err);
        if (res.headersSent) {
          res.destroy();
        } else {
          send(res, status, { error: { message } });
        }
        req.resume();
      })
      .finally(() => {
        requests.push({
          method: req.method ?? '',
          path: (req.url ?? '').split('?')[0] ?? '',
          status: res.statusCode,
        });
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  return {
    url: baseUrl,
    cloudinaryUrl: `cloudinary://${encodeURIComponent(apiKey)}:${encodeURIComponent(apiSecret)}@${cloudName}?upload_prefix=${baseUrl}`,
    objects,
    requests,
    settings,
    faults,
    chunkedUploads: () =>
      [...chunked.entries()].map(([uploadId, u]) => ({
        uploadId,
        publicId: u.publicId,
        ranges: [...u.chunks.entries()]
          .sort(([a], [b]) => a - b)
          .map(([first, c]): [number, number] => [first, c.last]),
      })),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownDirectory) await rm(directory, { recursive: true, force: true });
    },
  };
}
