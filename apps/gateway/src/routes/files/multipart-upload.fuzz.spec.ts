/**
 * Fuzzing the multipart parser (docs/fuzzing.md): readMultipartUpload, which reads
 * `POST /api/files/cloudinary/upload`, driven over real HTTP with generated forms: any boundary,
 * parts in any order with any names, fields over the limit, broken part headers, bodies cut short,
 * padded or with a foreign boundary, a wrong or missing Content-Type, a client that goes away
 * mid-body. Every request settles (no hang) with the upload handed over or a VaultError of 400
 * or 413, and an upload handed over settles `finished` the same way.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VaultError } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString } from '@vault/contracts/testing';
import fc from 'fast-check';
import { readMultipartUpload, type MultipartUploadOptions } from './multipart-upload';

const OPTIONS: MultipartUploadOptions = {
  requiredFields: ['fileId', 'size'],
  fileField: 'file',
  maxFields: 5,
  maxFieldBytes: 64,
  maxFileBytes: 4096,
};
/** A request still unsettled after this long is a hang. */
const SETTLE_MS = 5_000;

type Outcome =
  | { kind: 'upload'; fileBytes: number; finished: 'ok' | number }
  | { kind: 'refused'; status: number }
  | { kind: 'crash'; error: string }
  | { kind: 'hang' };

/** Each request's outcome, by the id the client sends in x-fuzz-id. */
class FormServer {
  private readonly outcomes = new Map<string, (o: Outcome) => void>();
  private readonly arrivals = new Map<string, () => void>();
  private readonly server: Server = createServer((req, res) => {
    const id = String(req.headers['x-fuzz-id']);
    this.arrivals.get(id)?.();
    const settle = this.outcomes.get(id);
    void Promise.race([
      handle(req),
      new Promise<Outcome>((resolve) => setTimeout(() => resolve({ kind: 'hang' }), SETTLE_MS).unref()),
    ]).then((outcome) => {
      const status = outcome.kind === 'refused' ? outcome.status : outcome.kind === 'upload' ? 200 : 500;
      if (!res.destroyed) res.writeHead(status, { connection: 'close' }).end();
      // The rest of a refused body is not read: drop the connection, as lingerThenClose would.
      req.socket.destroy();
      settle?.(outcome);
    });
  });
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  expect(id: string): Promise<Outcome> {
    return new Promise((resolve) => this.outcomes.set(id, resolve));
  }

  /** Resolves once the request `id` has reached the handler. */
  arrived(id: string): Promise<void> {
    return new Promise((resolve) => this.arrivals.set(id, resolve));
  }
}

async function handle(req: IncomingMessage): Promise<Outcome> {
  let upload;
  try {
    upload = await readMultipartUpload(req, OPTIONS);
  } catch (error) {
    if (error instanceof VaultError) return { kind: 'refused', status: error.status };
    return { kind: 'crash', error: String(error) };
  }
  let fileBytes = 0;
  try {
    for await (const chunk of upload.file) fileBytes += (chunk as Buffer).length;
  } catch (error) {
    if (!(error instanceof VaultError)) return { kind: 'crash', error: `file stream: ${String(error)}` };
  }
  try {
    await upload.finished;
    return { kind: 'upload', fileBytes, finished: 'ok' };
  } catch (error) {
    if (error instanceof VaultError) return { kind: 'upload', fileBytes, finished: error.status };
    return { kind: 'crash', error: `finished: ${String(error)}` };
  }
}

/** RFC 2046 boundary characters. */
const BCHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=?";
const boundaryArb = fc.string({ unit: fc.constantFrom(...BCHARS), minLength: 1, maxLength: 70 });
/** Header text a client can send (Node's client refuses CR, LF and other controls in a header). */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 120,
});
const partName = fc.oneof(fc.constantFrom('fileId', 'size', 'file', 'extra', ''), hostileString(12));

type Part =
  | { field: string; value: string }
  | { file: string; filename: string | undefined; type: string | undefined; bytes: Uint8Array }
  | { raw: string };

const partArb: fc.Arbitrary<Part> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      field: partName,
      value: fc.oneof(fc.string({ maxLength: 20 }), hostileString(100)),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      file: fc.oneof(fc.constant('file'), partName),
      filename: fc.option(fc.oneof(fc.constant('blob'), hostileString(20)), { nil: undefined }),
      type: fc.option(fc.constantFrom('application/octet-stream', 'text/plain', ''), { nil: undefined }),
      bytes: fc.uint8Array({ maxLength: 6000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ raw: fc.oneof(headerText, hostileString(80)) }) },
);

function encodePart(part: Part, boundary: string): Buffer {
  const head = `--${boundary}\r\n`;
  if ('raw' in part) return Buffer.from(`${head}${part.raw}\r\n\r\nx\r\n`);
  if ('field' in part) {
    return Buffer.from(
      `${head}Content-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
    );
  }
  const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
  const type = part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`;
  return Buffer.concat([
    Buffer.from(`${head}Content-Disposition: form-data; name="${part.file}"${filename}\r\n${type}\r\n`),
    part.bytes,
    Buffer.from('\r\n'),
  ]);
}

/** What happens to the whole body after it is encoded. */
const bodyChange = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 40 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('noClose' as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('trailer' as const), bytes: fc.uint8Array({ maxLength: 200 }) }),
  },
);

const contentTypeArb = (boundary: string) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(`multipart/form-data; boundary=${boundary}`) },
    { weight: 1, arbitrary: fc.constant(`multipart/form-data; boundary="${boundary}"; charset=utf-8`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('multipart/form-data', 'text/plain', 'application/json', undefined),
    },
    { weight: 1, arbitrary: boundaryArb.map((other) => `multipart/form-data; boundary=${other}`) },
    { weight: 1, arbitrary: headerText.map((t) => `multipart/form-data; ${t}`) },
    { weight: 1, arbitrary: headerText },
  );

/** The form the route wants (the required fields, then one file part), give or take a part. */
const nearValidParts: fc.Arbitrary<Part[]> = fc
  .tuple(
    fc.string({ maxLength: 40 }),
    fc.string({ maxLength: 12 }),
    fc.array(partArb, { maxLength: 2 }),
    fc.uint8Array({ maxLength: 6000 }),
    fc.array(partArb, { maxLength: 2 }),
  )
  .map(([fileId, size, middle, bytes, after]) => [
    { field: 'fileId', value: fileId },
    { field: 'size', value: size },
    ...middle,
    { file: 'file', filename: 'blob', type: 'application/octet-stream', bytes },
    ...after,
  ]);

const requestArb = boundaryArb.chain((boundary) =>
  fc.record({
    boundary: fc.constant(boundary),
    parts: fc.oneof(
      { weight: 2, arbitrary: nearValidParts },
      { weight: 1, arbitrary: fc.array(partArb, { maxLength: 7 }) },
    ),
    change: bodyChange,
    contentType: contentTypeArb(boundary),
    /** How the body goes: whole, in pieces, or the client goes away after `pieces` of it. */
    send: fc.oneof(
      fc.record({ kind: fc.constant('whole' as const) }),
      fc.record({ kind: fc.constant('pieces' as const), size: fc.integer({ min: 1, max: 700 }) }),
      fc.record({ kind: fc.constant('abort' as const), size: fc.integer({ min: 1, max: 700 }) }),
    ),
  }),
);
type FuzzRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function encode(r: FuzzRequest): Buffer {
  let body = Buffer.concat([
    ...r.parts.map((p) => encodePart(p, r.boundary)),
    Buffer.from(`--${r.boundary}--\r\n`),
  ]);
  const change = r.change;
  if (change.kind === 'cut') body = body.subarray(0, change.at % (body.length + 1));
  if (change.kind === 'insert') {
    const at = change.at % (body.length + 1);
    body = Buffer.concat([body.subarray(0, at), change.bytes, body.subarray(at)]);
  }
  if (change.kind === 'noClose') body = body.subarray(0, body.length - `--${r.boundary}--\r\n`.length);
  if (change.kind === 'trailer') body = Buffer.concat([body, change.bytes]);
  return body;
}

let sequence = 0;

interface Sent {
  contentType: string | undefined;
  send: FuzzRequest['send'];
  body: Buffer;
}

async function send(server: FormServer, r: Sent): Promise<Outcome> {
  const id = String((sequence += 1));
  const outcome = server.expect(id);
  const arrived = server.arrived(id);
  const headers: Record<string, string> = { 'x-fuzz-id': id };
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  const body = r.body;
  const req = httpRequest({ hostname: '127.0.0.1', port: server.port, method: 'POST', path: '/', headers });
  req.on('response', (res) => res.resume());
  req.on('error', () => undefined);
  if (r.send.kind === 'whole') {
    req.end(body);
  } else {
    const pieces: Buffer[] = [];
    for (let i = 0; i < body.length; i += r.send.size) pieces.push(body.subarray(i, i + r.send.size));
    if (r.send.kind === 'abort') {
      // The headers and the first half of the pieces, then the connection drops without the rest
      // (once the handler has the request: a request dropped before it arrives is no request).
      req.flushHeaders();
      for (const piece of pieces.slice(0, Math.ceil(pieces.length / 2))) req.write(piece);
      await arrived;
      await new Promise((resolve) => setTimeout(resolve, 5));
      req.destroy();
    } else {
      for (const piece of pieces) req.write(piece);
      req.end();
    }
  }
  return outcome;
}

describe('multipart parser (fuzz)', () => {
  const server = new FormServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  const forms = fuzzSettings(200);
  it(
    forms.title('any form settles: handed over, or refused with 400 or 413; never a crash or a hang'),
    async () => {
      await fuzz(
        fc.asyncProperty(requestArb, async (r) => {
          const outcome = await send(server, { ...r, body: encode(r) });
          if (outcome.kind === 'upload') {
            expect([`ok`, 400, 413]).toContain(outcome.finished);
            expect(outcome.fileBytes).toBeLessThanOrEqual(OPTIONS.maxFileBytes);
          } else {
            expect(
              outcome.kind === 'refused' && [400, 413].includes(outcome.status) ? 'refused' : outcome,
            ).toBe('refused');
          }
        }),
        forms,
      );
    },
    forms.timeoutMs,
  );
});

describe('multipart parser: regressions found by fuzzing', () => {
  const server = new FormServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());

  it('a body that ends inside the file part fails the file stream with a 400, not a plain Error (a 500 upstream)', async () => {
    // Seed 20261126, FUZZ_RUNS=600, run 176: the form the route wants, cut short mid-file.
    const body = Buffer.concat([
      Buffer.from(
        '--T4HlsA\r\nContent-Disposition: form-data; name="fileId"\r\n\r\n#X#LS?NK!e\r\n' +
          '--T4HlsA\r\nContent-Disposition: form-data; name="size"\r\n\r\n_f\r\n' +
          '--T4HlsA\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\n' +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from([7, 12, 150]),
    ]);
    const outcome = await send(server, {
      contentType: 'multipart/form-data; boundary=T4HlsA',
      send: { kind: 'whole' },
      body,
    });
    expect(outcome).toEqual({ kind: 'upload', fileBytes: 3, finished: 400 });
  });
});
