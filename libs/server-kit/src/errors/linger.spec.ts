import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lingerThenClose } from './linger';

/** A server that refuses every upload at once, before reading its body, as the blob route does. */
function refusingServer(lingerMs: number): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(403, { 'content-type': 'application/json' }).end('{"code":"LINK_INVALID"}');
    lingerThenClose(req, lingerMs);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Sends `declared` bytes' worth of upload, 64 KiB at a time while `keepSending`, and reads the answer. */
function upload(server: Server, declared: number, keepSending: boolean) {
  const { port } = server.address() as AddressInfo;
  const started = Date.now();
  return new Promise<{ status: number; body: string; closedAfterMs: number; sent: number }>((resolve) => {
    let status = 0;
    let body = '';
    let sent = 0;
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'PUT',
      path: '/x',
      headers: { 'content-length': declared },
    });
    const chunk = Buffer.alloc(64 * 1024);
    const pump = () => {
      while (sent < declared && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
        if (!keepSending && sent >= 1024 * 1024) return;
      }
    };
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8').on('data', (text: string) => (body += text));
    });
    req.on('error', () => undefined);
    req.on('close', () => resolve({ status, body, closedAfterMs: Date.now() - started, sent }));
    pump();
  });
}

describe('lingerThenClose', () => {
  let server: Server;
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  it('lets a refused upload read its whole answer, then closes once the peer stops sending', async () => {
    server = await refusingServer(300);
    for (let i = 0; i < 5; i += 1) {
      const res = await upload(server, 50 * 1024 * 1024, false);
      expect(res).toMatchObject({ status: 403, body: '{"code":"LINK_INVALID"}' });
      expect(res.closedAfterMs).toBeLessThan(2_000);
    }
  });

  it('cuts off a peer that keeps sending after the linger, long before the declared 1 GiB', async () => {
    server = await refusingServer(300);
    const res = await upload(server, 1024 * 1024 * 1024, true);
    expect(res.status).toBe(403);
    expect(res.closedAfterMs).toBeLessThan(5_000);
    expect(res.sent).toBeLessThan(1024 * 1024 * 1024);
  });
});
