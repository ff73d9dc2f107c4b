import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { ERROR_INFO, ErrorCode, VaultError } from '@vault/contracts';
// This entry is built on its own (tsconfig.testing.json → testing/dist, never in an image) and
// loads the lib through its package entry at run time, like any other consumer of the lib.
// eslint-disable-next-line @nx/enforce-module-boundaries -- a relative path would point into testing/dist
import { DEFAULT_BLOB_URL_BASE, parseBlobUrl, verifyBlobSignature, type StorageDriver } from '@vault/storage';

export interface LocalBlobServerOptions {
  /** The driver the bytes go to (normally a LocalStorageDriver). */
  driver: StorageDriver;
  signingSecret: Buffer | string;
  urlBase?: string;
  port?: number;
}

export interface LocalBlobServer {
  /** http://127.0.0.1:PORT: resolve the driver's relative URLs against it. */
  origin: string;
  close(): Promise<void>;
}

/**
 * A stand-alone version of the files service's blob route for the local driver, for tests
 * and as a reference: `PUT|GET ${urlBase}/<owner>/<fileId>?op&exp&len&sig`. The signature
 * decides everything (which object, which operation, which length, until when); a PUT must
 * declare exactly the signed Content-Length and is stored with that as its limit; a GET
 * honours a single `Range`.
 */
export async function startLocalBlobServer(options: LocalBlobServerOptions): Promise<LocalBlobServer> {
  const urlBase = options.urlBase ?? DEFAULT_BLOB_URL_BASE;
  const { driver, signingSecret } = options;

  const fail = (res: ServerResponse, code: ErrorCode, extraHeaders: Record<string, string> = {}) => {
    const body = JSON.stringify({ error: ERROR_INFO[code].message, code });
    res.writeHead(ERROR_INFO[code].status, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Access-Control-Allow-Origin': '*',
      ...extraHeaders,
    });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': 'GET, PUT',
        'Access-Control-Allow-Headers': 'Content-Type, Range',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    const verified = verifyBlobSignature(parseBlobUrl(req.url ?? '', urlBase), signingSecret);
    const expectedMethod = verified.op === 'put' ? 'PUT' : 'GET';
    if (req.method !== expectedMethod) throw new VaultError(ErrorCode.LINK_INVALID);

    if (verified.op === 'put') {
      const declared = Number(req.headers['content-length']);
      if (req.headers['content-length'] === undefined || declared !== verified.len) {
        req.resume();
        return fail(res, ErrorCode.UPLOAD_SIZE_MISMATCH);
      }
      const info = await driver.put(verified.key, req, { maxBytes: verified.len as number });
      if (info.size !== verified.len) {
        await driver.delete(verified.key);
        return fail(res, ErrorCode.UPLOAD_SIZE_MISMATCH);
      }
      res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Length': 0 });
      res.end();
      return;
    }

    const info = await driver.stat(verified.key);
    if (!info) return fail(res, ErrorCode.NOT_FOUND);
    const headers: Record<string, string | number> = {
      'Content-Type': 'application/octet-stream',
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, no-store',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'Content-Length, Content-Range',
    };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (req.headers.range && range && (range[1] !== '' || range[2] !== '')) {
      const size = info.size;
      const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
      const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      if (start >= size || end < start) {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}` });
        res.end();
        return;
      }
      const body = await driver.get(verified.key, { start, end });
      res.writeHead(206, {
        ...headers,
        'Content-Range': `bytes ${start}-${end}/${size}`,
        'Content-Length': end - start + 1,
      });
      await pipeline(body, res);
      return;
    }
    const body = await driver.get(verified.key);
    res.writeHead(200, { ...headers, 'Content-Length': info.size });
    await pipeline(body, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      req.resume();
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (err instanceof VaultError) return fail(res, err.code, { Connection: 'close' });
      fail(res, ErrorCode.INTERNAL, { Connection: 'close' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
