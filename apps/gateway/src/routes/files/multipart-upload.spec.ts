import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, VaultError } from '@vault/contracts';
import { MULTIPART_MESSAGES, readMultipartUpload, type MultipartUploadOptions } from './multipart-upload';

const BOUNDARY = '----vault-test-boundary';
const OPTIONS: MultipartUploadOptions = {
  requiredFields: ['fileId', 'size'],
  fileField: 'file',
  maxFields: 5,
  maxFieldBytes: 64,
  maxFileBytes: 1024 * 1024,
};

type Part = { field: string; value: string } | { file: string; bytes: Buffer; filename?: string };

function partHead(part: Part): string {
  if ('field' in part) return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n`;
  return (
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.file}"; filename="${part.filename ?? 'blob'}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n'
  );
}

function encode(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(partHead(part)));
    chunks.push('field' in part ? Buffer.from(part.value) : part.bytes);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

interface Outcome {
  fields?: Record<string, string>;
  fileBytes?: number;
  fileHash?: string;
  /** Set when the file began before the body had ended (it was handed over, not collected). */
  handedOverEarly?: boolean;
  error?: { code: string; message: string; status: number };
  finishedError?: { code: string; message: string };
}

/** A real HTTP server whose handler runs readMultipartUpload on each request. */
class FormServer {
  outcome: Promise<Outcome> = Promise.resolve({});
  private settle: (o: Outcome) => void = () => undefined;
  private readonly server: Server = createServer((req, res) => {
    void this.handle(req).then((outcome) => {
      res.writeHead(outcome.error ? outcome.error.status : 200, { connection: 'close' }).end();
      this.settle(outcome);
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

  expect(): void {
    this.outcome = new Promise((resolve) => (this.settle = resolve));
  }

  private async handle(req: IncomingMessage): Promise<Outcome> {
    const outcome: Outcome = {};
    try {
      const upload = await readMultipartUpload(req, OPTIONS);
      outcome.handedOverEarly = !req.complete;
      outcome.fields = upload.fields;
      const hash = createHash('sha256');
      let bytes = 0;
      for await (const chunk of upload.file) {
        bytes += (chunk as Buffer).length;
        hash.update(chunk as Buffer);
      }
      outcome.fileBytes = bytes;
      outcome.fileHash = hash.digest('hex');
      await upload.finished.catch((error: VaultError) => {
        outcome.finishedError = { code: error.code, message: error.message };
      });
    } catch (error) {
      const e = error as VaultError;
      outcome.error = { code: e.code, message: e.message, status: e instanceof VaultError ? e.status : 500 };
    }
    return outcome;
  }
}

describe(readMultipartUpload.name, () => {
  const server = new FormServer();

  beforeAll(() => server.start());
  afterAll(() => server.stop());

  /** Sends `body` (in pieces, with an optional pause hook between them) and waits for the handler's outcome. */
  async function post(
    body: Buffer | Buffer[],
    headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  ): Promise<Outcome> {
    server.expect();
    const pieces = Array.isArray(body) ? body : [body];
    const req = httpRequest({ hostname: '127.0.0.1', port: server.port, method: 'POST', path: '/', headers });
    req.on('response', (res) => res.resume());
    req.on('error', () => undefined);
    for (const piece of pieces) req.write(piece);
    req.end();
    return server.outcome;
  }

  it('answers the fields sent before the file, then hands the file over as a stream of its exact bytes', async () => {
    const bytes = Buffer.alloc(300_000, 7);
    const outcome = await post(
      encode([
        { field: 'fileId', value: 'f-1' },
        { field: 'size', value: '42' },
        { file: 'file', bytes },
      ]),
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.fields).toEqual({ fileId: 'f-1', size: '42' });
    expect(outcome.fileBytes).toBe(bytes.length);
    expect(outcome.fileHash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(outcome.finishedError).toBeUndefined();
  });

  it('hands the file over as soon as it begins, before the body has ended (nothing is collected)', async () => {
    server.expect();
    const req = httpRequest({
      hostname: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    req.on('response', (res) => res.resume());
    const head = encode([
      { field: 'fileId', value: 'f-1' },
      { field: 'size', value: '1' },
    ]).subarray(0, -`--${BOUNDARY}--\r\n`.length);
    req.write(
      Buffer.concat([
        head,
        Buffer.from(partHead({ file: 'file', bytes: Buffer.alloc(0) })),
        Buffer.alloc(65_536, 1),
      ]),
    );
    // The rest of the file, and the end of the form, only a while later.
    await new Promise((r) => setTimeout(r, 200));
    req.end(Buffer.concat([Buffer.alloc(65_536, 2), Buffer.from(`\r\n--${BOUNDARY}--\r\n`)]));
    const outcome = await server.outcome;
    expect(outcome.handedOverEarly).toBe(true);
    expect(outcome.fileBytes).toBe(131_072);
  });

  it.each<[string, Part[], string]>([
    [
      'the file before any field',
      [{ file: 'file', bytes: Buffer.from('x') }],
      MULTIPART_MESSAGES.fieldsFirst,
    ],
    [
      'the file before all required fields',
      [
        { field: 'fileId', value: 'f-1' },
        { file: 'file', bytes: Buffer.from('x') },
        { field: 'size', value: '1' },
      ],
      MULTIPART_MESSAGES.fieldsFirst,
    ],
    [
      'a field twice',
      [
        { field: 'fileId', value: 'a' },
        { field: 'fileId', value: 'b' },
      ],
      'Duplicate field: fileId',
    ],
    [
      'a file part of another name',
      [
        { field: 'fileId', value: 'a' },
        { field: 'size', value: '1' },
        { file: 'upload', bytes: Buffer.from('x') },
      ],
      'Unknown field: upload',
    ],
    [
      '"file" sent as a text field',
      [
        { field: 'fileId', value: 'a' },
        { field: 'size', value: '1' },
        { field: 'file', value: 'abc' },
      ],
      MULTIPART_MESSAGES.fileNotAFile,
    ],
    [
      'no file at all',
      [
        { field: 'fileId', value: 'a' },
        { field: 'size', value: '1' },
      ],
      MULTIPART_MESSAGES.noFile,
    ],
    [
      'more fields than allowed',
      ['a', 'b', 'c', 'd', 'e', 'f'].map((f) => ({ field: f, value: '1' })),
      MULTIPART_MESSAGES.tooManyFields,
    ],
  ])('answers 400 to a form with %s', async (_label, parts, message) => {
    const outcome = await post(encode(parts));
    expect(outcome.error).toEqual({ code: ErrorCode.VALIDATION_FAILED, message, status: 400 });
  });

  it('answers 413 to a field over the size limit', async () => {
    const outcome = await post(encode([{ field: 'fileId', value: 'x'.repeat(65) }]));
    expect(outcome.error).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      message: 'Field too large: fileId',
      status: 413,
    });
  });

  it.each([
    ['JSON', { 'content-type': 'application/json' }],
    ['multipart without a boundary', { 'content-type': 'multipart/form-data' }],
    ['no content type', {} as Record<string, string>],
  ])('answers 400 to a body that is %s', async (_label, headers) => {
    const outcome = await post(Buffer.from('{"fileId":"x"}'), headers);
    expect(outcome.error).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: MULTIPART_MESSAGES.notMultipart,
      status: 400,
    });
  });

  it('fails `finished` when anything follows the file: a field, or a second file', async () => {
    const base: Part[] = [
      { field: 'fileId', value: 'a' },
      { field: 'size', value: '1' },
      { file: 'file', bytes: Buffer.from('x') },
    ];
    const afterField = await post(encode([...base, { field: 'encryptedTags', value: 't' }]));
    expect(afterField.fileBytes).toBe(1);
    expect(afterField.finishedError).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: MULTIPART_MESSAGES.fieldsFirst,
    });
    const secondFile = await post(encode([...base, { file: 'file', bytes: Buffer.from('y') }]));
    expect(secondFile.finishedError).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: MULTIPART_MESSAGES.oneFile,
    });
  });

  it('ends the file stream with an error when the client goes away mid-file', async () => {
    server.expect();
    const req = httpRequest({
      hostname: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/',
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': '1000000' },
    });
    req.on('error', () => undefined);
    const head = encode([
      { field: 'fileId', value: 'f-1' },
      { field: 'size', value: '1' },
    ]).subarray(0, -`--${BOUNDARY}--\r\n`.length);
    req.write(
      Buffer.concat([
        head,
        Buffer.from(partHead({ file: 'file', bytes: Buffer.alloc(0) })),
        Buffer.alloc(1000),
      ]),
    );
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    const outcome = await server.outcome;
    // Either the file stream broke (the `for await` threw) or `finished` did: never a clean upload.
    expect(outcome.error ?? outcome.finishedError).toBeDefined();
  });
});
