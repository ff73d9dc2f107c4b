import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { clientErrorHandler } from './client-error.handler';

/** Sends raw bytes to a real listening server and reads everything until it closes the connection. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.end(request);
  });
}

describe('clientErrorHandler (requests the HTTP parser refuses)', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = Fastify({ clientErrorHandler });
    app.get('/ok', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

  it('headers over 16 KiB: 431 with our error shape and code, connection closed', async () => {
    const answer = await raw(port, `GET /ok HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer.startsWith('HTTP/1.1 431 Request Header Fields Too Large\r\n')).toBe(true);
    expect(answer).toMatch(/\r\nConnection: close\r\n/);
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    expect(bodyOf(answer)).toEqual({ error: 'Request headers too large', code: 'HEADERS_TOO_LARGE' });
  });

  it('bytes that are not HTTP: 400 VALIDATION_FAILED "Malformed HTTP request"', async () => {
    const answer = await raw(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer.startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
    expect(bodyOf(answer)).toEqual({ error: 'Malformed HTTP request', code: 'VALIDATION_FAILED' });
  });

  it('a well-formed request is untouched', async () => {
    const answer = await raw(port, 'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(bodyOf(answer)).toEqual({ ok: true });
  });
});
