import { lingerThenClose } from '@vault/server-kit';
import { createHash } from 'node:crypto';
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ErrorCode, VaultError } from '@vault/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { HttpStub, type HttpHandler } from '../../test/support/http-stub';
import { toHttpError } from '../errors/http-error-mapping';
import { registerSecurityHeaders } from '../security/security-headers';
import { registerJsonBodyParser } from '../validation/json-body.parser';
import { registerStreamedBodies } from '../validation/streamed-body.parser';
import {
  BLOB_MAX_BYTES,
  byteLimit,
  errorOfAnswer,
  exactLength,
  FilesBlobProxy,
  isBlobPath,
} from './files-blob.proxy';

const MiB = 1024 * 1024;
/** Holding a 20 MiB body would grow the process by at least that much; streaming stays far below. */
const RSS_BUDGET = 10 * MiB;
const KEY = '0b7c1e2a-7d2f-4c8e-9a51-2f0a1c3b4d5e/5f6e7d8c-9b0a-4c1d-8e2f-3a4b5c6d7e8f';
const SIGNED = `/api/files/blob/${KEY}?op=get&exp=9999999999&sig=${'a'.repeat(64)}`;

/** The files service's HTTP listener, played by a tiny node:http server the test steers. */
class Upstream extends HttpStub {
  handler: HttpHandler = (_req, res) => res.writeHead(500).end();
  readonly requests: { method?: string; url?: string; headers: IncomingHttpHeaders }[] = [];

  protected override receive(req: IncomingMessage, res: ServerResponse): void {
    this.requests.push({ method: req.method, url: req.url, headers: req.headers });
    this.handler(req, res);
  }
}

/** The gateway's edge as far as the blob route needs it: parsers, headers, the route, the error mapping. */
async function startGateway(proxy: FilesBlobProxy): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  registerJsonBodyParser(app, 1024 * 1024);
  registerStreamedBodies(app);
  await registerSecurityHeaders(app);
  app.setErrorHandler((error, request, reply) => {
    const answer = toHttpError(error, request.id);
    void reply.status(answer.status).headers(answer.headers).send(answer.body);
  });
  app.route({
    method: ['HEAD', 'GET', 'PUT'],
    url: '/api/files/blob/*',
    exposeHeadRoute: false,
    handler: (request, reply) => proxy.forward(request, reply),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

interface ClientAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request on its own connection; `body` is a Buffer or a stream piped with backpressure. */
function send(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string | number>; body?: Buffer | Readable } = {},
): Promise<ClientAnswer> {
  return new Promise((resolve, reject) => {
    // Host, port and path apart: a URL string would be normalised (`..`, `%2e%2e`) by the client.
    const { hostname, port } = new URL(base);
    const req = httpRequest(
      { hostname, port, path, method, headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body instanceof Readable) options.body.pipe(req);
    else req.end(options.body);
  });
}

/** `total` bytes made on demand, 64 KiB at a time, the same every run (never held whole). */
function generated(total: number, hash?: ReturnType<typeof createHash>): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      const chunk = Buffer.alloc(Math.min(64 * 1024, total - sent), sent % 251);
      sent += chunk.length;
      hash?.update(chunk);
      this.push(chunk);
    },
  });
}

// Collections on demand (Jest runs without --expose-gc): memory is then sampled as what is
// still held, not as garbage that V8 has not got round to yet. Chunks in flight die young, so a
// cheap young-generation collection before each sample is enough.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'major' | 'minor' }) => void;

/**
 * Runs `work` while sampling the resident set of this process, each time right after a
 * collection: the peak growth over the start is what the process held at once. Samples come
 * every 10 ms and whenever `work` calls `sample` (the tests do per MiB that arrives): a busy event
 * loop can hold the timer back while megabytes stream, and the garbage Buffers of those
 * megabytes, not yet freed, would then count as held (seen on a cold ts-jest cache: +13-22 MiB).
 */
async function peakGrowth<T>(work: (sample: () => void) => Promise<T>): Promise<{ result: T; rss: number }> {
  gc();
  const before = process.memoryUsage.rss();
  let rss = 0;
  const sample = () => {
    gc({ type: 'minor' });
    rss = Math.max(rss, process.memoryUsage.rss() - before);
  };
  const timer = setInterval(sample, 10);
  try {
    const result = await work(sample);
    sample();
    return { result, rss };
  } finally {
    clearInterval(timer);
  }
}

/** Calls `sample` once per `every` bytes counted. */
function perBytes(sample: () => void, every = MiB): (bytes: number) => void {
  let next = every;
  let seen = 0;
  return (bytes) => {
    seen += bytes;
    if (seen >= next) {
      next += every;
      sample();
    }
  };
}

const until = async (check: () => boolean, timeoutMs = 5000): Promise<void> => {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe(FilesBlobProxy.name, () => {
  const upstream = new Upstream();
  let proxy: FilesBlobProxy;
  let gateway: { app: FastifyInstance; url: string };

  beforeAll(async () => {
    proxy = new FilesBlobProxy({ httpUrl: await upstream.start(), answerTimeoutMs: 1500 });
    gateway = await startGateway(proxy);
  });

  afterAll(async () => {
    await gateway.app.close();
    proxy.close();
    await upstream.stop();
  });

  beforeEach(() => {
    upstream.requests.length = 0;
  });

  describe('uploads (PUT)', () => {
    it('streams a 20 MB body through without holding it: bytes arrive upstream while the client is still sending, and memory stays flat', async () => {
      const total = 20 * MiB;
      const sentHash = createHash('sha256');
      const received = { bytes: 0, hash: createHash('sha256') };
      let arrived: (bytes: number) => void = () => undefined;
      upstream.handler = (req, res) => {
        req.on('data', (c: Buffer) => {
          received.bytes += c.length;
          received.hash.update(c);
          arrived(c.length);
        });
        req.on('end', () => res.writeHead(204).end());
      };
      // The client holds its last 10 MiB back until 5 MiB reached the upstream: a gateway that
      // buffered the body before sending it on would never let that happen (the test would time out).
      const first = generated(10 * MiB, sentHash);
      const body = new PassThrough();
      first.pipe(body, { end: false });
      first.on('end', () => {
        void until(() => received.bytes >= 5 * MiB, 10_000).then(() =>
          generated(10 * MiB, sentHash).pipe(body),
        );
      });

      const { result, rss } = await peakGrowth((sample) => {
        arrived = perBytes(sample);
        return send(gateway.url, 'PUT', SIGNED.replace('op=get', 'op=put&len=20971520'), {
          headers: { 'content-length': total, 'content-type': 'application/octet-stream' },
          body,
        });
      });

      expect(result.status).toBe(204);
      expect(received.bytes).toBe(total);
      expect(received.hash.digest('hex')).toBe(sentHash.digest('hex'));
      expect(upstream.requests[0]?.headers).toMatchObject({
        'content-length': String(total),
        'content-type': 'application/octet-stream',
      });
      expect(rss).toBeLessThan(RSS_BUDGET);
    }, 30_000);

    it('passes method, path and query unchanged, and never the caller’s cookies or Authorization', async () => {
      upstream.handler = (req, res) => req.resume().on('end', () => res.writeHead(204).end());
      const path = SIGNED.replace('op=get', 'op=put&len=3');
      const res = await send(gateway.url, 'PUT', path, {
        headers: {
          'content-type': 'application/octet-stream',
          cookie: 'vault_refresh=x',
          authorization: 'Bearer y',
        },
        body: Buffer.from('abc'),
      });
      expect(res.status).toBe(204);
      expect(upstream.requests[0]).toMatchObject({ method: 'PUT', url: path });
      expect(upstream.requests[0]?.headers.cookie).toBeUndefined();
      expect(upstream.requests[0]?.headers.authorization).toBeUndefined();
    });

    it('passes Content-Range of an upload part upstream with its bytes, and relays the 204', async () => {
      upstream.handler = (req, res) => req.resume().on('end', () => res.writeHead(204).end());
      const path = SIGNED.replace('op=get', 'op=put&len=10');
      const res = await send(gateway.url, 'PUT', path, {
        headers: { 'content-type': 'application/octet-stream', 'content-range': 'bytes 4-6/10' },
        body: Buffer.from('abc'),
      });
      expect(res.status).toBe(204);
      expect(upstream.requests[0]).toMatchObject({ method: 'PUT', url: path });
      expect(upstream.requests[0]?.headers).toMatchObject({
        'content-range': 'bytes 4-6/10',
        'content-length': '3',
        'content-type': 'application/octet-stream',
      });
    });

    it('answers 413 to a Content-Length over the encrypted maximum without asking the files service', async () => {
      const req = httpRequest(`${gateway.url}${SIGNED}`, {
        method: 'PUT',
        headers: { 'content-length': BLOB_MAX_BYTES + 1, 'content-type': 'application/octet-stream' },
        agent: false,
      });
      const answer = await new Promise<ClientAnswer>((resolve, reject) => {
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        });
        req.on('error', reject);
        req.write(Buffer.alloc(1024));
      });
      req.destroy();
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body.toString())).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(answer.headers.connection).toBe('close');
      expect(upstream.requests).toEqual([]);
    });

    it('relays an early refusal of the files service (403 before reading the body), every time', async () => {
      // As the files service answers (apps/files/src/http/blob-server.ts): the refusal at once, then
      // the rest of the body read and dropped for a moment instead of a reset under the answer.
      upstream.handler = (req, res) => {
        res
          .writeHead(403, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'This link is invalid or has expired', code: 'LINK_INVALID' }));
        lingerThenClose(req);
      };
      for (let i = 0; i < 5; i += 1) {
        const res = await send(gateway.url, 'PUT', SIGNED.replace('op=get', 'op=put&len=8388608'), {
          headers: { 'content-length': 8 * MiB, 'content-type': 'application/octet-stream' },
          body: generated(8 * MiB),
        });
        expect(res.status).toBe(403);
        expect(JSON.parse(res.body.toString())).toEqual({
          error: 'This link is invalid or has expired',
          code: 'LINK_INVALID',
        });
      }
    });

    it('aborts the upstream upload when the client goes away mid-body', async () => {
      let upstreamReq: IncomingMessage | undefined;
      let closedIncomplete = false;
      upstream.handler = (req) => {
        upstreamReq = req;
        req.resume();
        req.on('close', () => {
          closedIncomplete = !req.complete;
        });
      };
      const req = httpRequest(`${gateway.url}${SIGNED.replace('op=get', 'op=put&len=4194304')}`, {
        method: 'PUT',
        headers: { 'content-length': 4 * MiB, 'content-type': 'application/octet-stream' },
        agent: false,
      });
      req.on('error', () => undefined);
      req.write(Buffer.alloc(MiB));
      await until(() => upstreamReq !== undefined);
      req.destroy();
      await until(() => closedIncomplete);
      expect(closedIncomplete).toBe(true);
    });
  });

  describe('downloads (GET, HEAD)', () => {
    const OBJECT = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

    const serveObject: HttpHandler = (req, res) => {
      const headers = {
        'content-type': 'application/octet-stream',
        'accept-ranges': 'bytes',
        'cache-control': 'no-store',
        'x-internal': 'never forwarded',
        'set-cookie': 'internal=1',
      };
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (range) {
        const start = Number(range[1]);
        const end = range[2] ? Number(range[2]) : OBJECT.length - 1;
        res.writeHead(206, {
          ...headers,
          'content-range': `bytes ${start}-${end}/${OBJECT.length}`,
          'content-length': end - start + 1,
        });
        res.end(req.method === 'HEAD' ? undefined : OBJECT.subarray(start, end + 1));
        return;
      }
      res.writeHead(200, { ...headers, 'content-length': OBJECT.length });
      res.end(req.method === 'HEAD' ? undefined : OBJECT);
    };

    it('streams the object back with its status and the four byte headers, and only those', async () => {
      upstream.handler = serveObject;
      const res = await send(gateway.url, 'GET', SIGNED);
      expect(res.status).toBe(200);
      expect(res.body.equals(OBJECT)).toBe(true);
      expect(res.headers).toMatchObject({
        'content-length': '1000',
        'content-type': 'application/octet-stream',
        'accept-ranges': 'bytes',
      });
      expect(res.headers['x-internal']).toBeUndefined();
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('keeps the security headers and Cache-Control: no-store on the relayed answer', async () => {
      upstream.handler = serveObject;
      const res = await send(gateway.url, 'GET', SIGNED);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'self'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    });

    it('passes Range through and relays the 206 with Content-Range', async () => {
      upstream.handler = serveObject;
      const res = await send(gateway.url, 'GET', SIGNED, { headers: { range: 'bytes=100-199' } });
      expect(upstream.requests[0]?.headers.range).toBe('bytes=100-199');
      expect(res.status).toBe(206);
      expect(res.headers['content-range']).toBe('bytes 100-199/1000');
      expect(res.headers['content-length']).toBe('100');
      expect(res.body.equals(OBJECT.subarray(100, 200))).toBe(true);
    });

    it('asks HEAD upstream as HEAD and answers the headers only', async () => {
      upstream.handler = serveObject;
      const res = await send(gateway.url, 'HEAD', SIGNED);
      expect(upstream.requests[0]?.method).toBe('HEAD');
      expect(res.status).toBe(200);
      expect(res.headers['content-length']).toBe('1000');
      expect(res.body.length).toBe(0);
    });

    it('streams a 20 MB download without holding it: the client has bytes while the files service is still sending, and memory stays flat', async () => {
      const total = 20 * MiB;
      const sentHash = createHash('sha256');
      const got = { bytes: 0, hash: createHash('sha256') };
      // The files service holds its last 10 MiB back until the client has 5 MiB: a gateway that
      // collected the answer before passing it on would never let that happen.
      upstream.handler = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': total });
        const first = generated(10 * MiB, sentHash);
        first.pipe(res, { end: false });
        first.on('end', () => {
          void until(() => got.bytes >= 5 * MiB, 10_000).then(() => generated(10 * MiB, sentHash).pipe(res));
        });
      };
      const { result, rss } = await peakGrowth(
        (sample) =>
          new Promise<number>((resolve, reject) => {
            const { hostname, port } = new URL(gateway.url);
            const arrived = perBytes(sample);
            httpRequest({ hostname, port, path: SIGNED, agent: false }, (res) => {
              res.on('data', (c: Buffer) => {
                got.bytes += c.length;
                got.hash.update(c);
                arrived(c.length);
              });
              res.on('end', () => resolve(res.statusCode ?? 0));
            })
              .on('error', reject)
              .end();
          }),
      );
      expect(result).toBe(200);
      expect(got.bytes).toBe(total);
      expect(got.hash.digest('hex')).toBe(sentHash.digest('hex'));
      expect(rss).toBeLessThan(RSS_BUDGET);
    }, 30_000);

    it('stops the upstream download when the client goes away', async () => {
      let upstreamRes: ServerResponse | undefined;
      let closedUnfinished = false;
      upstream.handler = (_req, res) => {
        upstreamRes = res;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 64 * MiB });
        res.on('close', () => {
          closedUnfinished = !res.writableFinished;
        });
        generated(64 * MiB).pipe(res);
      };
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(`${gateway.url}${SIGNED}`, { agent: false }, (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            bytes += c.length;
            if (bytes > MiB) {
              req.destroy();
              resolve();
            }
          });
        });
        req.on('error', () => undefined);
        req.on('close', () => resolve());
        req.end();
        setTimeout(() => reject(new Error('no data')), 5000);
      });
      await until(() => closedUnfinished);
      expect(upstreamRes?.writableFinished).toBe(false);
    });

    it('relays an error answer of the files service (403 LINK_INVALID) as it is', async () => {
      upstream.handler = (_req, res) =>
        res
          .writeHead(403, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'This link is invalid or has expired', code: 'LINK_INVALID' }));
      const res = await send(gateway.url, 'GET', SIGNED);
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toBe('application/json');
      expect(JSON.parse(res.body.toString())).toEqual({
        error: 'This link is invalid or has expired',
        code: 'LINK_INVALID',
      });
    });
  });

  describe('failures', () => {
    it('answers 503 Service unavailable when the files service cannot be reached', async () => {
      const down = new FilesBlobProxy({ httpUrl: 'http://127.0.0.1:1' });
      const gw = await startGateway(down);
      try {
        const res = await send(gw.url, 'GET', SIGNED);
        expect(res.status).toBe(503);
        expect(JSON.parse(res.body.toString())).toMatchObject({
          error: 'Service unavailable',
          code: 'SERVICE_UNAVAILABLE',
        });
        expect(res.headers['cache-control']).toBe('no-store');
      } finally {
        await gw.app.close();
        down.close();
      }
    });

    it('answers 503 when the files service does not start answering in time', async () => {
      upstream.handler = () => undefined;
      const res = await send(gateway.url, 'GET', SIGNED);
      expect(res.status).toBe(503);
    });

    it.each([
      ['a dot-dot segment', `/api/files/blob/a/../../health?op=get`],
      ['an encoded dot-dot', `/api/files/blob/a/%2e%2e/b?op=get`],
      ['an empty segment', `/api/files/blob/a//b?op=get`],
    ])(
      'refuses a path with %s as an invalid link, without asking the files service',
      async (_label, path) => {
        const res = await send(gateway.url, 'GET', path);
        expect(res.status).toBe(403);
        expect(JSON.parse(res.body.toString())).toMatchObject({ code: 'LINK_INVALID' });
        expect(upstream.requests).toEqual([]);
      },
    );
  });

  describe('put (the multipart route’s upload)', () => {
    const url = SIGNED.replace('op=get', 'op=put&len=5');

    it('sends exactly the declared bytes with their Content-Length', async () => {
      let got = '';
      upstream.handler = (req, res) => {
        req.setEncoding('utf8');
        req.on('data', (c: string) => (got += c));
        req.on('end', () => res.writeHead(204).end());
      };
      await proxy.put(url, Readable.from([Buffer.from('hel'), Buffer.from('lo')]), 5);
      expect(got).toBe('hello');
      expect(upstream.requests[0]?.headers['content-length']).toBe('5');
    });

    it('fails a short part with UPLOAD_SIZE_MISMATCH and a long one with 413, aborting the upstream request mid-body', async () => {
      const closed: boolean[] = [];
      upstream.handler = (req) => {
        req.resume();
        req.on('close', () => closed.push(req.complete));
      };
      // The first bytes reach the files service, then the part turns out short (or long).
      const part = (first: string, rest: string | null) =>
        Readable.from(
          (async function* () {
            yield Buffer.from(first);
            await until(() => upstream.requests.length > closed.length);
            if (rest !== null) yield Buffer.from(rest);
          })(),
        );

      await expect(proxy.put(url, part('hey', null), 5)).rejects.toMatchObject({
        code: ErrorCode.UPLOAD_SIZE_MISMATCH,
        message: 'The upload is 3 bytes; 5 were declared',
      });
      await until(() => closed.length === 1);
      await expect(proxy.put(url, part('hel', 'lo!'), 5)).rejects.toMatchObject({
        code: ErrorCode.PAYLOAD_TOO_LARGE,
        message: 'The upload is larger than the 5 bytes that were declared',
      });
      await until(() => closed.length === 2);
      expect(closed).toEqual([false, false]);
    });

    it('rejects with the files service’s own error', async () => {
      upstream.handler = (req, res) =>
        req.resume().on('end', () =>
          res.writeHead(400, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              error: 'The upload is 5 bytes; 6 were declared',
              code: 'UPLOAD_SIZE_MISMATCH',
            }),
          ),
        );
      await expect(proxy.put(url, Readable.from([Buffer.from('hello')]), 5)).rejects.toMatchObject({
        code: ErrorCode.UPLOAD_SIZE_MISMATCH,
        message: 'The upload is 5 bytes; 6 were declared',
      });
    });

    it('refuses an upload URL that is not a blob path of this origin', async () => {
      await expect(proxy.put('https://elsewhere.example/x', Readable.from([]), 0)).rejects.toMatchObject({
        code: ErrorCode.INTERNAL,
      });
    });
  });
});

describe('blob proxy helpers', () => {
  it('accepts object-key paths only', () => {
    expect(isBlobPath(`/api/files/blob/${KEY}?op=get`)).toBe(true);
    expect(isBlobPath(`/api/files/blob/${KEY}.thumb`)).toBe(true);
    expect(isBlobPath('/api/files/blob/')).toBe(false);
    expect(isBlobPath('/api/files/blob/a/../b')).toBe(false);
    expect(isBlobPath('/api/files/other/a')).toBe(false);
    expect(isBlobPath('/api/files/blob/a/b/c/d/e')).toBe(false);
  });

  it('byteLimit fails past its limit', async () => {
    const out = Readable.from([Buffer.alloc(6), Buffer.alloc(6)]).pipe(byteLimit(10));
    await expect(async () => {
      for await (const _chunk of out) {
        // drain
      }
    }).rejects.toMatchObject({ code: ErrorCode.PAYLOAD_TOO_LARGE });
  });

  it('exactLength passes exactly the declared bytes', async () => {
    const chunks: Buffer[] = [];
    for await (const c of Readable.from([Buffer.from('ab'), Buffer.from('c')]).pipe(exactLength(3))) {
      chunks.push(c as Buffer);
    }
    expect(Buffer.concat(chunks).toString()).toBe('abc');
  });

  it('reads the VaultError of an error answer, and a 503 from a 5xx that is not one', () => {
    const error = errorOfAnswer(
      403,
      Buffer.from(
        JSON.stringify({ error: 'File is infected and cannot be downloaded', code: 'FILE_INFECTED' }),
      ),
    );
    expect(error).toBeInstanceOf(VaultError);
    expect(error).toMatchObject({
      code: 'FILE_INFECTED',
      message: 'File is infected and cannot be downloaded',
    });
    expect(errorOfAnswer(502, Buffer.from('<html>'))).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(errorOfAnswer(400, Buffer.from('{}'))).toMatchObject({ code: 'INTERNAL' });
  });
});
