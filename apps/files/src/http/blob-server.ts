import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import { ErrorCode, isErrorCode, VaultError } from '@vault/contracts';
import { httpErrorFor, lingerThenClose, trackHttpRequest } from '@vault/server-kit';
import { DEFAULT_BLOB_URL_BASE, parseBlobUrl, type ByteRange, type UploadPart } from '@vault/storage';
import type { BlobService } from '../services/blob.service';

/**
 * The files service's HTTP listener: the blob route of signed URLs (`/api/files/blob/...`, the
 * gateway streams requests here unchanged). Bodies are streamed to and from the storage driver,
 * never buffered. Internal only (the gateway is the public door); every request is still
 * authorised by its URL signature alone, so a leaked URL is worth one object for 5 minutes (an
 * upload in parts that began in time may take its later parts after that, while still pending).
 */
export function createBlobServer(blobs: BlobService, log: Pick<Logger, 'warn' | 'error'>): Server {
  return createServer((req, res) => {
    trackHttpRequest(req, res, routeOf(req.url ?? '/'));
    handle(blobs, req, res).catch((error: unknown) => sendError(res, error, log, req));
  });
}

/** The route label of http_requests_total: never the URL, whose token and signature are a credential. */
function routeOf(url: string): string | undefined {
  if (url.startsWith(`${DEFAULT_BLOB_URL_BASE}/`)) return `${DEFAULT_BLOB_URL_BASE}/*`;
  return url === '/health' ? '/health' : undefined;
}

function parseRange(header: string | undefined): ByteRange | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header.trim());
  if (!match) throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Only a single byte range is supported');
  const start = Number(match[1]);
  const end = match[2] ? Number(match[2]) : Number.MAX_SAFE_INTEGER;
  return { start, end };
}

/** `Content-Range: bytes first-last/total` of one upload part (inclusive, as in HTTP). */
export function parseContentRange(header: string): UploadPart {
  const match = /^bytes (\d{1,15})-(\d{1,15})\/(\d{1,15})$/.exec(header.trim());
  if (!match) {
    throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Content-Range must be "bytes <first>-<last>/<total>"');
  }
  const [first, last, total] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (first > last || last >= total) {
    throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Content-Range must have first ≤ last < total');
  }
  return { first, last, total };
}

/**
 * The request's body as a stream of its own for the storage driver. A store that fails half-way
 * makes the driver destroy what it reads (stream pipelines do): this stream, not the request, so
 * the answer (503 STORAGE_UNAVAILABLE) still reaches the client, sendError draining the rest for
 * a moment (lingerThenClose). A client that goes away fails it, so no driver waits for its end.
 */
function uploadBody(req: IncomingMessage): Readable {
  const body = new PassThrough();
  // A body refused before it was read has no reader to tell: its error must not go unheard.
  body.on('error', () => undefined);
  req.pipe(body);
  req.once('close', () => {
    if (!req.complete && !body.destroyed) body.destroy(new Error('The upload was cut off by the client'));
  });
  return body;
}

async function handle(blobs: BlobService, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  if (req.method === 'GET' && url === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (!url.startsWith(`${DEFAULT_BLOB_URL_BASE}/`)) {
    throw new VaultError(ErrorCode.NOT_FOUND);
  }
  const params = parseBlobUrl(url);
  if (req.method === 'PUT') {
    const lengthHeader = req.headers['content-length'];
    const parsedLength = lengthHeader !== undefined ? Number(lengthHeader) : undefined;
    const contentLength = Number.isSafeInteger(parsedLength) ? parsedLength : undefined;
    const rangeHeader = req.headers['content-range'];
    if (rangeHeader === undefined) {
      await blobs.upload(params, uploadBody(req), contentLength);
    } else {
      await blobs.uploadPart(params, uploadBody(req), contentLength, parseContentRange(rangeHeader));
    }
    res.writeHead(204, { 'cache-control': 'no-store' }).end();
    return;
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    const download = await blobs.download(params, parseRange(req.headers.range));
    const headers: Record<string, string | number> = {
      'content-type': 'application/octet-stream',
      'cache-control': 'no-store',
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    };
    if (download.range) {
      headers['content-range'] = `bytes ${download.range.start}-${download.range.end}/${download.size}`;
      headers['content-length'] = download.range.end - download.range.start + 1;
      res.writeHead(206, headers);
    } else {
      headers['content-length'] = download.size;
      res.writeHead(200, headers);
    }
    if (req.method === 'HEAD') {
      download.body.destroy();
      res.end();
      return;
    }
    await pipeline(download.body, res);
    return;
  }
  res.setHeader('allow', 'GET, HEAD, PUT');
  throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Method not allowed');
}

function sendError(
  res: ServerResponse,
  error: unknown,
  log: Pick<Logger, 'warn' | 'error'>,
  req: IncomingMessage,
): void {
  const vault =
    error instanceof VaultError
      ? error
      : typeof error === 'object' &&
          error !== null &&
          'code' in error &&
          isErrorCode((error as { code: unknown }).code)
        ? new VaultError((error as { code: ErrorCode }).code, (error as { message?: string }).message)
        : undefined;
  if (!vault) {
    // Never the URL: its signature is a 5-minute credential.
    log.error(
      { method: req.method, err: error instanceof Error ? error.message : String(error) },
      'Blob request failed',
    );
  }
  const { status, body } = httpErrorFor(vault ?? new VaultError(ErrorCode.INTERNAL));
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
  // An upload refused before its body was read: not closed at once (a reset could lose this
  // answer), and no longer piped to the driver's stream (uploadBody), which nobody reads now.
  req.unpipe();
  lingerThenClose(req);
}
