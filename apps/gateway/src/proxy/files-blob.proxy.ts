import {
  Agent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { OnApplicationShutdown } from '@nestjs/common';
import {
  ErrorCode,
  expectedEncryptedSize,
  FILE_CHUNK_SIZE,
  FILE_MAX_BYTES,
  isErrorCode,
  VaultError,
  type ErrorExtra,
} from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Where signed blob URLs point (the files service signs them relative to this origin). */
export const BLOB_PATH = '/api/files/blob';

/** Largest blob upload: the encrypted form of a FILE_MAX_BYTES file (FILE_MAX_BYTES + 16 × 1600). */
export const BLOB_MAX_BYTES = expectedEncryptedSize(FILE_MAX_BYTES, FILE_CHUNK_SIZE);

/**
 * How long the files service may take to start its answer: from the last byte of an upload
 * (it still has to finish writing to disk or to Cloudinary), or from the request of a download.
 * Once an answer streams, no timer runs: a slow client only slows its own download down.
 */
export const BLOB_ANSWER_TIMEOUT_MS = 60_000;

/** Error answers of the files service are small JSON; read them whole (bounded) before relaying. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;

// content-range: one part of an upload sent in parts (the files service's local storage).
const REQUEST_HEADERS = ['content-length', 'content-type', 'content-range', 'range'] as const;
const RESPONSE_HEADERS = ['content-length', 'content-range', 'accept-ranges', 'content-type'] as const;

/** A key segment of a signed URL (`<ownerId>/<fileId>`, `.thumb` variants); never `.` or `..`. */
const SEGMENT = /^[A-Za-z0-9_.-]{1,128}$/;

export interface FilesBlobProxyOptions {
  /** The files service's HTTP listener, an origin (`http://127.0.0.1:4013`). */
  httpUrl: string;
  answerTimeoutMs?: number;
}

function unavailable(): VaultError {
  return new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
}

/** Only paths that can be a signed object key go upstream; anything else is an invalid link. */
export function isBlobPath(url: string): boolean {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.startsWith(`${BLOB_PATH}/`)) return false;
  const segments = path.slice(BLOB_PATH.length + 1).split('/');
  return segments.length <= 4 && segments.every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
}

/** The declared Content-Length of an upload: a number, undefined when chunked, 400 when garbled. */
function declaredLength(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,16}$/.test(value)) throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Invalid Content-Length');
  return Number(value);
}

function tooLarge(maxBytes: number): VaultError {
  return new VaultError(ErrorCode.PAYLOAD_TOO_LARGE, undefined, { maxBytes });
}

/** Passes bytes through and fails once more than `maxBytes` went by (uploads without Content-Length). */
export function byteLimit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) done(tooLarge(maxBytes));
      else done(null, chunk);
    },
  });
}

/**
 * Passes exactly `length` bytes: more fails at once with 413, fewer fails at the end with
 * UPLOAD_SIZE_MISMATCH (the files service checks again; this keeps a short part from leaving
 * an upstream request waiting for bytes that never come).
 */
export function exactLength(length: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      seen += chunk.length;
      if (seen > length) {
        done(
          new VaultError(
            ErrorCode.PAYLOAD_TOO_LARGE,
            `The upload is larger than the ${length} bytes that were declared`,
          ),
        );
      } else {
        done(null, chunk);
      }
    },
    flush(done: TransformCallback) {
      if (seen === length) done();
      else
        done(
          new VaultError(
            ErrorCode.UPLOAD_SIZE_MISMATCH,
            `The upload is ${seen} bytes; ${length} were declared`,
          ),
        );
    },
  });
}

/** Reads a small answer body whole; more than `max` bytes rejects. */
async function readSmall(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > max) throw new Error('answer too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** The domain error an error answer of the files service carries (`{error, code, ...extra}`). */
export function errorOfAnswer(status: number, body: Buffer): VaultError {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const { error, code, requestId: _id, ...extra } = parsed;
    if (isErrorCode(code)) {
      return new VaultError(code, typeof error === 'string' ? error : undefined, extra as ErrorExtra);
    }
  } catch {
    // not JSON: fall through
  }
  return status >= 500 ? unavailable() : new VaultError(ErrorCode.INTERNAL);
}

/**
 * Streams blob requests to the files service's HTTP listener and its answers back, unchanged and
 * never buffered (docs/architecture.md "How the parts talk": bytes never travel over RPC).
 * Backpressure holds both ways (pipes), a client that goes away aborts the upstream request, and an
 * upstream that cannot be reached (or does not start answering in time) is a 503.
 */
export class FilesBlobProxy implements OnApplicationShutdown {
  private readonly agent = new Agent({ keepAlive: true });
  private readonly target: URL;
  private readonly answerTimeoutMs: number;

  constructor(options: FilesBlobProxyOptions) {
    this.target = new URL(options.httpUrl);
    this.answerTimeoutMs = options.answerTimeoutMs ?? BLOB_ANSWER_TIMEOUT_MS;
  }

  /**
   * `PUT|GET|HEAD /api/files/blob/*`: method, path and query, Content-Length, Content-Type,
   * Content-Range (upload parts) and Range go up; status, Content-Length, Content-Range, Accept-Ranges, Content-Type and the body
   * come back. The reply's own hooks add the security headers and `Cache-Control: no-store`.
   */
  async forward(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const raw = request.raw;
    const method = request.method;
    if (!isBlobPath(request.url)) throw new VaultError(ErrorCode.LINK_INVALID);
    const length = method === 'PUT' ? declaredLength(raw.headers['content-length']) : undefined;
    if (length !== undefined && length > BLOB_MAX_BYTES) throw tooLarge(BLOB_MAX_BYTES);

    const headers: OutgoingHttpHeaders = { 'x-request-id': request.id };
    for (const name of REQUEST_HEADERS) {
      const value = raw.headers[name];
      if (value !== undefined) headers[name] = value;
    }
    const upstream = this.open(method, request.url, headers);
    const answer = this.answerOf(upstream, method !== 'PUT');
    // The client went away before its answer was out: abort the upstream request (and with
    // it, the files service's read from or write to storage).
    reply.raw.once('close', () => {
      if (!reply.raw.writableEnded) upstream.destroy(new Error('client closed the connection'));
    });

    if (method === 'PUT') {
      raw.once('error', (error) => upstream.destroy(error));
      if (length === undefined) {
        const limit = byteLimit(BLOB_MAX_BYTES);
        limit.once('error', (error) => upstream.destroy(error));
        raw.pipe(limit).pipe(upstream);
      } else {
        raw.pipe(upstream);
      }
    } else {
      upstream.end();
    }

    const res = await answer;
    // Its errors (the upstream breaking off mid-answer) reach whoever reads it; never uncaught.
    res.on('error', () => undefined);
    // An upload refused before its body was read: stop sending it upstream. The rest of the
    // client's body is read and dropped for a moment after the answer (onSend hook, lingerThenClose).
    const refusedEarly = method === 'PUT' && !raw.complete;
    if (refusedEarly) raw.unpipe();
    const status = res.statusCode ?? 502;
    reply.status(status);
    for (const name of RESPONSE_HEADERS) {
      const value = res.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    if (method === 'HEAD' || status === 204 || status === 304) {
      res.resume();
      reply.send();
    } else if (status >= 400) {
      // Small JSON errors are read whole, so that the upstream closing its connection right
      // after an early refusal cannot cut the answer short.
      let body: Buffer;
      try {
        body = await readSmall(res, ERROR_BODY_MAX_BYTES);
      } catch {
        upstream.destroy();
        throw unavailable();
      }
      // The refused upload's request was never ended: its connection cannot be reused.
      if (refusedEarly) upstream.destroy();
      reply.send(body);
    } else {
      // Fastify pipes the stream (backpressure) and destroys it if the client goes away.
      reply.send(res);
    }
    // Settle only once the answer is out: the route's promise resolving earlier (while the
    // async onSend hooks still run and a stream has not written its headers) would make
    // Fastify send an empty answer in its place.
    await reply;
  }

  /**
   * PUT of `body` to a signed blob URL (relative, as the files service signs it) with exactly
   * `length` bytes, for the multipart Cloudinary route. Resolves once the files service stored
   * the object; its error answers reject as their VaultError.
   */
  async put(uploadUrl: string, body: Readable, length: number): Promise<void> {
    if (!isBlobPath(uploadUrl)) {
      throw new VaultError(ErrorCode.INTERNAL, 'The files service signed an upload URL of another kind');
    }
    const upstream = this.open('PUT', uploadUrl, {
      'content-length': length,
      'content-type': 'application/octet-stream',
    });
    const answer = this.answerOf(upstream, false);
    const sent = pipeline(body, exactLength(length), upstream);
    // Whichever settles first decides: a short or long body, or the upstream's early answer.
    const res = await Promise.race([answer, sent.then(() => answer)]).catch(async (error: unknown) => {
      upstream.destroy();
      throw error;
    });
    sent.catch(() => undefined);
    const status = res.statusCode ?? 502;
    if (status >= 200 && status < 300) {
      res.resume();
      return;
    }
    const errorBody = await readSmall(res, ERROR_BODY_MAX_BYTES).catch(() => Buffer.alloc(0));
    body.destroy();
    throw errorOfAnswer(status, errorBody);
  }

  /** Health: the files service's HTTP listener answers `GET /health` with 200 within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const upstream = this.open('GET', '/health', {});
      const timer = setTimeout(() => upstream.destroy(new Error('timeout')), timeoutMs);
      upstream.once('response', (res) => {
        clearTimeout(timer);
        res.resume();
        if (res.statusCode === 200) resolve();
        else reject(new Error(`files HTTP listener answered ${res.statusCode}`));
      });
      upstream.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      upstream.end();
    });
  }

  /** Closes the kept-alive upstream connections. */
  close(): void {
    this.agent.destroy();
  }

  onApplicationShutdown(): void {
    this.close();
  }

  private open(method: string, path: string, headers: OutgoingHttpHeaders): ClientRequest {
    return httpRequest({
      protocol: this.target.protocol,
      hostname: this.target.hostname,
      port: this.target.port,
      method,
      path,
      headers,
      agent: this.agent,
    });
  }

  /**
   * The upstream's answer (status and headers), or a rejection: 503 when it cannot be reached,
   * breaks off, or does not start answering within the timeout (counted from the end of the
   * request body, or at once for bodiless requests); the VaultError that aborted it otherwise.
   */
  private answerOf(upstream: ClientRequest, timerNow: boolean): Promise<IncomingMessage> {
    return new Promise<IncomingMessage>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const arm = () => {
        timer = setTimeout(() => upstream.destroy(unavailable()), this.answerTimeoutMs);
      };
      if (timerNow) arm();
      else upstream.once('finish', arm);
      upstream.once('response', (res) => {
        settled = true;
        clearTimeout(timer);
        resolve(res);
      });
      // Errors after the answer arrived (the upstream closing a refused upload) change nothing.
      upstream.on('error', (error) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        reject(error instanceof VaultError ? error : unavailable());
      });
    });
  }
}
