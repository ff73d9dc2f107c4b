import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Readable } from 'node:stream';
import { closedPort, startFakeClamd, type FakeClamd } from '../testing/fake-clamd';
import {
  ClamdUnavailableError,
  INSTREAM_MAX_CHUNK_BYTES,
  ObjectStreamError,
  parseClamdReply,
  pingClamd,
  scanStream,
  type ClamdEndpoint,
} from './clamd-client';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A stream of `total` pseudo-random bytes made on demand, counting what was read from it. */
function lazyBytes(total: number, chunk = 256 * 1024): Readable & { produced: () => number } {
  let produced = 0;
  const block = randomBytes(chunk);
  const stream = new Readable({
    read() {
      if (produced >= total) return void this.push(null);
      const n = Math.min(chunk, total - produced);
      produced += n;
      this.push(n === chunk ? block : block.subarray(0, n));
    },
  }) as Readable & { produced: () => number };
  stream.produced = () => produced;
  return stream;
}

describe('clamd INSTREAM client', () => {
  let clamd: FakeClamd;
  let endpoint: ClamdEndpoint;

  beforeEach(async () => {
    clamd = await startFakeClamd();
    endpoint = { host: clamd.host, port: clamd.port, timeoutMs: 2000 };
  });

  afterEach(async () => {
    await clamd.close();
  });

  describe('framing', () => {
    it('sends zINSTREAM, length-prefixed chunks and a zero-length terminator, byte for byte', async () => {
      const bytes = randomBytes(3 * INSTREAM_MAX_CHUNK_BYTES + 12345);
      const verdict = await scanStream(endpoint, Readable.from([bytes]));
      expect(verdict).toEqual({ status: 'clean' });
      const [stream] = clamd.streams;
      expect(stream?.command).toBe('zINSTREAM');
      expect(stream?.terminated).toBe(true);
      expect(stream?.bytes).toBe(bytes.length);
      expect(stream?.sha256).toBe(sha256(bytes));
    });

    it('splits a source chunk larger than 1 MiB into chunks of at most 1 MiB', async () => {
      const bytes = randomBytes(2 * INSTREAM_MAX_CHUNK_BYTES + 1);
      await scanStream(endpoint, Readable.from([bytes]));
      expect(clamd.streams[0]?.chunkSizes).toEqual([INSTREAM_MAX_CHUNK_BYTES, INSTREAM_MAX_CHUNK_BYTES, 1]);
    });

    it('skips empty source chunks, which would otherwise end the stream early', async () => {
      const parts = [Buffer.from('abc'), Buffer.alloc(0), Buffer.from('def')];
      await scanStream(endpoint, Readable.from(parts));
      expect(clamd.streams[0]?.chunkSizes).toEqual([3, 3]);
      expect(clamd.streams[0]?.sha256).toBe(sha256(Buffer.from('abcdef')));
    });

    it('scans an empty object as a stream with only the terminator', async () => {
      await expect(scanStream(endpoint, Readable.from([]))).resolves.toEqual({ status: 'clean' });
      expect(clamd.streams[0]).toMatchObject({ bytes: 0, chunkSizes: [], terminated: true });
    });
  });

  describe('verdicts', () => {
    it('reports a signature clamd FOUND', async () => {
      clamd.behaviour.answer = () => 'stream: Vault.Test.EICAR.UNOFFICIAL FOUND';
      await expect(scanStream(endpoint, Readable.from([Buffer.from('x')]))).resolves.toEqual({
        status: 'infected',
        signature: 'Vault.Test.EICAR.UNOFFICIAL',
      });
    });

    it("takes clamd's early answer (size limit) as the verdict while the stream is still being sent", async () => {
      clamd.behaviour.earlyAnswer = { afterBytes: 64 * 1024, text: 'INSTREAM size limit exceeded. ERROR' };
      const source = lazyBytes(64 * 1024 * 1024);
      await expect(scanStream(endpoint, source)).resolves.toEqual({
        status: 'error',
        message: 'INSTREAM size limit exceeded.',
      });
      expect(source.destroyed).toBe(true);
      expect(source.produced()).toBeLessThan(16 * 1024 * 1024);
    });
  });

  describe('parseClamdReply', () => {
    it.each([
      ['stream: OK\0', { status: 'clean' }],
      ['stream: OK', { status: 'clean' }],
      ['stream: Win.Test.EICAR_HDB-1 FOUND\0', { status: 'infected', signature: 'Win.Test.EICAR_HDB-1' }],
      [
        'INSTREAM size limit exceeded. ERROR\0',
        { status: 'error', message: 'INSTREAM size limit exceeded.' },
      ],
      ["stream: Can't allocate memory ERROR", { status: 'error', message: "Can't allocate memory" }],
      ['UNKNOWN COMMAND', { status: 'error', message: 'Unexpected answer from ClamAV: UNKNOWN COMMAND' }],
      ['', { status: 'error', message: 'Unexpected answer from ClamAV: (empty)' }],
    ])('%j', (reply, verdict) => {
      expect(parseClamdReply(reply)).toEqual(verdict);
    });
  });

  describe('when clamd cannot answer', () => {
    it('says clamd is unreachable when nothing listens', async () => {
      const port = await closedPort();
      const error = await scanStream({ ...endpoint, port }, Readable.from([Buffer.from('x')])).catch(
        (e) => e,
      );
      expect(error).toBeInstanceOf(ClamdUnavailableError);
      expect((error as Error).message).toBe(`ClamAV is unreachable at 127.0.0.1:${port}: ECONNREFUSED`);
    });

    it('gives up after the time limit when clamd never answers', async () => {
      clamd.behaviour.answer = () => null;
      const started = Date.now();
      const error = await scanStream(
        { ...endpoint, timeoutMs: 300 },
        Readable.from([Buffer.from('x')]),
      ).catch((e) => e);
      expect(error).toBeInstanceOf(ClamdUnavailableError);
      expect((error as Error).message).toContain('did not answer within 300 ms');
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('is unavailable when clamd hangs up without an answer', async () => {
      clamd.behaviour.hangUp = true;
      const error = await scanStream(endpoint, Readable.from([Buffer.from('x')])).catch((e) => e);
      expect(error).toBeInstanceOf(ClamdUnavailableError);
    });
  });

  it('reports a failing source as a storage problem, not a clamd one', async () => {
    const source = new Readable({
      read() {
        this.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      },
    });
    const error = await scanStream(endpoint, source).catch((e) => e);
    expect(error).toBeInstanceOf(ObjectStreamError);
    expect((error as Error).message).toBe('Reading the stored object failed: ECONNRESET');
  });

  it('reads the source only as fast as clamd takes the bytes (memory stays flat)', async () => {
    clamd.behaviour.stall = true;
    const source = lazyBytes(512 * 1024 * 1024);
    const scan = scanStream({ ...endpoint, timeoutMs: 600 }, source).catch((e) => e);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Socket buffers hold a few MiB at most; without backpressure all 512 MiB would be read.
    expect(source.produced()).toBeLessThan(32 * 1024 * 1024);
    expect(await scan).toBeInstanceOf(ClamdUnavailableError);
  });

  it('pings clamd', async () => {
    const server = createServer((socket) => socket.once('data', () => socket.end('PONG\0')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await expect(pingClamd({ ...endpoint, port })).resolves.toBeUndefined();
    server.close();
    await expect(pingClamd({ ...endpoint, port: await closedPort() })).rejects.toBeInstanceOf(
      ClamdUnavailableError,
    );
  });
});
