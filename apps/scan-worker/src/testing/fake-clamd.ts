import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * A fake clamd speaking INSTREAM, for unit tests of the client: it checks the framing
 * (`zINSTREAM\0`, big-endian length-prefixed chunks, zero-length terminator), records what
 * arrived (byte count, SHA-256, chunk sizes) without keeping the bytes, and answers as told.
 */
export interface StreamRecord {
  command: string;
  bytes: number;
  sha256: string;
  chunkSizes: number[];
  terminated: boolean;
}

export interface FakeClamdBehaviour {
  /** The answer (without NUL) once the stream ends; default `stream: OK`. null: never answer. */
  answer?: (record: StreamRecord) => string | null;
  /** Answer this, and close, as soon as this many bytes have arrived (clamd's size limit). */
  earlyAnswer?: { afterBytes: number; text: string };
  /** Close the connection as soon as the command arrives, without an answer. */
  hangUp?: boolean;
  /** Stop reading from the socket (to exercise the client's backpressure). */
  stall?: boolean;
}

export interface FakeClamd {
  host: string;
  port: number;
  streams: StreamRecord[];
  behaviour: FakeClamdBehaviour;
  sockets: Set<Socket>;
  close(): Promise<void>;
}

export async function startFakeClamd(behaviour: FakeClamdBehaviour = {}): Promise<FakeClamd> {
  const streams: StreamRecord[] = [];
  const sockets = new Set<Socket>();
  const fake: FakeClamd = {
    host: '127.0.0.1',
    port: 0,
    streams,
    behaviour,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (fake.behaviour.stall) {
      socket.pause();
      return;
    }
    const record: StreamRecord = { command: '', bytes: 0, sha256: '', chunkSizes: [], terminated: false };
    const hash = createHash('sha256');
    streams.push(record);
    let buffer: Buffer = Buffer.alloc(0);
    let stage: 'command' | 'length' | 'data' | 'done' = 'command';
    let remaining = 0;
    const reply = (text: string) => {
      stage = 'done';
      socket.end(`${text}\0`);
    };

    socket.on('data', (data: Buffer) => {
      buffer = buffer.length === 0 ? data : Buffer.concat([buffer, data]);
      for (;;) {
        if (stage === 'done') return;
        if (stage === 'command') {
          const nul = buffer.indexOf(0);
          if (nul < 0) return;
          record.command = buffer.subarray(0, nul).toString('latin1');
          buffer = buffer.subarray(nul + 1);
          if (fake.behaviour.hangUp) {
            stage = 'done';
            socket.destroy();
            return;
          }
          if (record.command !== 'zINSTREAM') return reply('UNKNOWN COMMAND');
          stage = 'length';
        } else if (stage === 'length') {
          if (buffer.length < 4) return;
          remaining = buffer.readUInt32BE(0);
          buffer = buffer.subarray(4);
          if (remaining === 0) {
            record.terminated = true;
            record.sha256 = hash.digest('hex');
            const answer = (fake.behaviour.answer ?? (() => 'stream: OK'))(record);
            if (answer === null) {
              stage = 'done';
              return;
            }
            return reply(answer);
          }
          record.chunkSizes.push(remaining);
          stage = 'data';
        } else {
          if (buffer.length === 0) return;
          const take = Math.min(remaining, buffer.length);
          hash.update(buffer.subarray(0, take));
          record.bytes += take;
          remaining -= take;
          buffer = buffer.subarray(take);
          const early = fake.behaviour.earlyAnswer;
          if (early && record.bytes >= early.afterBytes) return reply(early.text);
          if (remaining === 0) stage = 'length';
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  fake.port = typeof address === 'object' && address ? address.port : 0;
  return fake;
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
