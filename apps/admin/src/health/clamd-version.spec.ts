import { createServer, type Server, type Socket } from 'node:net';
import { clamdHealth, parseClamdVersion } from './clamd-version';

describe('clamd VERSION', () => {
  const now = new Date('2026-11-26T10:37:00Z');

  it('reads the engine, the signature number, its date and age', () => {
    expect(parseClamdVersion('ClamAV 1.4.3/27470/Tue Nov 25 08:37:00 2026\0', now)).toEqual({
      status: 'up',
      version: 'ClamAV 1.4.3',
      signatureVersion: 27470,
      signatureDate: '2026-11-25T08:37:00.000Z',
      signatureAgeHours: 26,
    });
  });

  it('reads a single-digit day (clamd pads it with a space)', () => {
    expect(parseClamdVersion('ClamAV 1.0.7/27001/Mon Nov  2 01:00:00 2026\n', now)?.signatureDate).toBe(
      '2026-11-02T01:00:00.000Z',
    );
  });

  it('answers the engine alone when clamd has no signature database', () => {
    expect(parseClamdVersion('ClamAV 1.4.3\0', now)).toEqual({
      status: 'up',
      version: 'ClamAV 1.4.3',
      signatureVersion: null,
      signatureDate: null,
      signatureAgeHours: null,
    });
  });

  it.each(['', 'PONG', 'UNKNOWN COMMAND', 'HTTP/1.1 400 Bad Request'])('refuses %j', (reply) => {
    expect(parseClamdVersion(reply, now)).toBeNull();
  });

  describe('over TCP', () => {
    let server: Server;
    let port = 0;
    let answer = '';
    beforeAll(async () => {
      server = createServer((socket) => {
        socket.once('data', (data) => {
          if (data.toString() === 'zVERSION\0') socket.end(answer);
          else socket.destroy();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('sends zVERSION and reads the NUL-ended answer', async () => {
      answer = 'ClamAV 1.4.3/27470/Tue Nov 25 08:37:00 2026\0';
      const health = await clamdHealth({ host: '127.0.0.1', port });
      expect(health).toMatchObject({ status: 'up', version: 'ClamAV 1.4.3', signatureVersion: 27470 });
    });

    it('is down when the answer is not a version', async () => {
      answer = 'garbage\0';
      expect((await clamdHealth({ host: '127.0.0.1', port })).status).toBe('down');
    });

    it('is down when nothing listens', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const freePort = (closed.address() as { port: number }).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      expect((await clamdHealth({ host: '127.0.0.1', port: freePort })).status).toBe('down');
    });

    it('is down when the peer never answers (timeout)', async () => {
      const held: Socket[] = [];
      const silent = createServer((socket) => void held.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const silentPort = (silent.address() as { port: number }).port;
      const started = Date.now();
      expect((await clamdHealth({ host: '127.0.0.1', port: silentPort }, 200)).status).toBe('down');
      expect(Date.now() - started).toBeLessThan(2000);
      held.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
  });
});
