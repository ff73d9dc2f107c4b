/**
 * Fuzzing Content-Range and Range (docs/fuzzing.md): the files service's blob route reads both
 * straight from the request. parseContentRange takes exactly `bytes first-last/total` with
 * first ≤ last < total (all safe integers) and refuses anything else with VALIDATION_FAILED; the
 * whole route, over HTTP, answers any Range, Content-Range, URL and method with a success or a
 * JSON 4xx carrying a code, never a 5xx, and hands the service only well-formed ranges.
 */
import type { AddressInfo } from 'node:net';
import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { ErrorCode, VaultError } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import type { BlobSignatureParams, ByteRange, UploadPart } from '@vault/storage';
import fc from 'fast-check';
import type { BlobService } from '../services/blob.service';
import { createBlobServer, parseContentRange } from './blob-server';

const SIZE = 1000;

/** The blob service's range rules over a 1000-byte object; records what the route handed it. */
class FakeBlobs {
  parts: UploadPart[] = [];
  ranges: ByteRange[] = [];

  async upload(_params: BlobSignatureParams, body: Readable): Promise<void> {
    body.resume();
  }

  async uploadPart(_params: BlobSignatureParams, body: Readable, _length: unknown, part: UploadPart) {
    this.parts.push(part);
    body.resume();
    return { stored: part.last + 1, complete: part.last + 1 === part.total };
  }

  async download(_params: BlobSignatureParams, range: ByteRange | undefined) {
    if (!range) return { body: Readable.from([Buffer.alloc(SIZE)]), size: SIZE };
    this.ranges.push(range);
    if (range.start >= SIZE || range.start > range.end) {
      throw new VaultError(ErrorCode.VALIDATION_FAILED, 'Range not satisfiable');
    }
    const clamped = { start: range.start, end: Math.min(range.end, SIZE - 1) };
    return {
      body: Readable.from([Buffer.alloc(clamped.end - clamped.start + 1)]),
      size: SIZE,
      range: clamped,
    };
  }
}

const digits = (max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: max });
/** Header values a client can send: tab, printable ASCII and Latin-1 (Node refuses the rest). */
const headerValue = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    fc.constantFrom('\t', '\u00a0', '\u00b2', '\u00ff'),
  ),
  maxLength: 60,
});
/** What Node's client lets through in a header value. */
const sendable = (value: string) => !/[^\t\x20-\x7e\x80-\xff]/.test(value);
const contentRangeLike = fc.oneof(
  fc.tuple(digits(17), digits(17), digits(17)).map(([a, b, c]) => `bytes ${a}-${b}/${c}`),
  fc.tuple(fc.integer(), fc.integer(), fc.integer()).map(([a, b, c]) => `bytes ${a}-${b}/${c}`),
  fc.constant('bytes 0-99/1000').chain((valid) => mutationOf(valid)),
  headerValue,
  hostileString(40),
);
const rangeLike = fc.oneof(
  fc.tuple(digits(17), fc.option(digits(17), { nil: '' })).map(([a, b]) => `bytes=${a}-${b}`),
  fc.constant('bytes=0-99').chain((valid) => mutationOf(valid)),
  fc.constantFrom('bytes=-5', 'bytes=0-1,3-4', 'bytes=1-0', 'bytes= 1-2', 'bytes=999-', 'bytes=1000-'),
  headerValue,
);

describe('Content-Range and Range (fuzz)', () => {
  const parse = fuzzSettings(2_000);
  it(
    parse.title(
      'parseContentRange: a part with first ≤ last < total that spells the header back, or VALIDATION_FAILED',
    ),
    async () => {
      await fuzz(
        fc.property(contentRangeLike, (header) => {
          let part: UploadPart;
          try {
            part = parseContentRange(header);
          } catch (error) {
            if (!(error instanceof VaultError)) throw error;
            expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
            return;
          }
          for (const n of [part.first, part.last, part.total])
            expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
          expect(part.first <= part.last && part.last < part.total).toBe(true);
          expect(header.trim().replace(/(?<=[ \-/])0+(?=\d)/g, '')).toBe(
            `bytes ${part.first}-${part.last}/${part.total}`,
          );
        }),
        parse,
      );
    },
    parse.timeoutMs,
  );

  const valid = fuzzSettings(500);
  it(
    valid.title('parseContentRange takes every part of every object up to 15 digits'),
    async () => {
      const triple = fc
        .tuple(
          fc.nat({ max: 999_999_999_999_999 }),
          fc.nat({ max: 999_999_999_999_999 }),
          fc.nat({ max: 999_999_999_999_999 }),
        )
        .filter(([a, b, c]) => c > Math.max(a, b))
        .map(([a, b, c]) => ({ first: Math.min(a, b), last: Math.max(a, b), total: c }));
      await fuzz(
        fc.property(triple, (part) => {
          expect(parseContentRange(`bytes ${part.first}-${part.last}/${part.total}`)).toEqual(part);
        }),
        valid,
      );
    },
    valid.timeoutMs,
  );

  describe('over HTTP', () => {
    const blobs = new FakeBlobs();
    let server: Server;
    let port = 0;
    const logged: unknown[] = [];
    beforeAll(async () => {
      server = createBlobServer(
        blobs as unknown as BlobService,
        {
          warn: () => undefined,
          error: (obj: unknown) => void logged.push(obj),
        } as never,
      );
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    function call(method: string, path: string, headers: Record<string, string>, body?: Buffer) {
      return new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
        const req = httpRequest(
          { hostname: '127.0.0.1', port, method, path, headers },
          (res: IncomingMessage) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                type: String(res.headers['content-type'] ?? ''),
                text: Buffer.concat(chunks).toString('utf8'),
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    }

    const path = fc.oneof(
      fc.constant('/api/files/blob/owner/file?op=get&exp=1&sig=ab'),
      fc.constant('/api/files/blob/owner/file?op=put&exp=1&sig=ab&len=10'),
      fc
        .string({
          unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
          maxLength: 60,
        })
        .map((tail) => `/api/files/blob/${tail}`),
      fc.constantFrom(
        '/',
        '/health',
        '/api/files/blob/',
        '/api/files/blob/a?op=get&op=put&exp=1&sig=1',
        '/%',
      ),
    );

    const requests = fuzzSettings(200);
    it(
      requests.title('any Range, Content-Range, URL and method: a success or a JSON 4xx with a code'),
      async () => {
        await fuzz(
          fc.asyncProperty(
            fc.constantFrom('GET', 'HEAD', 'PUT', 'POST', 'DELETE'),
            path,
            fc.option(rangeLike.filter(sendable), { nil: undefined }),
            fc.option(contentRangeLike.filter(sendable), { nil: undefined }),
            fc.uint8Array({ maxLength: 200 }),
            async (method, url, range, contentRange, bytes) => {
              const headers: Record<string, string> = {};
              if (range !== undefined) headers['range'] = range;
              if (contentRange !== undefined) headers['content-range'] = contentRange;
              blobs.ranges = [];
              blobs.parts = [];
              const res = await call(method, url, headers, method === 'PUT' ? Buffer.from(bytes) : undefined);
              expect(res.status).toBeLessThan(500);
              if (res.status >= 400) {
                expect(res.type).toContain('application/json');
                // A HEAD answer has its headers only.
                if (method === 'HEAD') return;
                const body = JSON.parse(res.text) as { code?: unknown; error?: unknown };
                expect(typeof body.code).toBe('string');
                expect(typeof body.error).toBe('string');
              }
              for (const r of blobs.ranges)
                expect(Number.isSafeInteger(r.start) && Number.isSafeInteger(r.end)).toBe(true);
              for (const p of blobs.parts) expect(p.first <= p.last && p.last < p.total).toBe(true);
            },
          ),
          requests,
        );
        expect(logged).toEqual([]);
      },
      requests.timeoutMs,
    );
  });
});
