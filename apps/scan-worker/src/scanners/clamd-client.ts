import { connect } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * clamd's INSTREAM protocol over a raw TCP socket (clamd(8) "INSTREAM"):
 *
 *   client: "zINSTREAM\0", then chunks of <uint32 big-endian length><bytes>, then a
 *           zero-length chunk (4 zero bytes) to end the stream
 *   clamd:  "stream: OK\0" | "stream: <signature> FOUND\0" | "<reason> ERROR\0"
 *
 * The bytes are streamed with the socket's backpressure: memory stays flat whatever the
 * object's size. clamd may answer (and close) before the stream ends, e.g. with "INSTREAM
 * size limit exceeded. ERROR"; that answer is the verdict.
 */

export interface ClamdEndpoint {
  host: string;
  port: number;
  /** Connect limit, and the longest silence while streaming or waiting for the verdict. */
  timeoutMs: number;
}

export type ClamdVerdict =
  { status: 'clean' } | { status: 'infected'; signature: string } | { status: 'error'; message: string };

/** clamd could not be reached, or stopped answering: worth retrying later. */
export class ClamdUnavailableError extends Error {
  override name = 'ClamdUnavailableError';
}

/** The object's stream failed while it was being sent: the storage, not clamd. */
export class ObjectStreamError extends Error {
  override name = 'ObjectStreamError';
}

/** Larger source chunks are sent as several INSTREAM chunks of at most this size. */
export const INSTREAM_MAX_CHUNK_BYTES = 1024 * 1024;

const codeOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException | undefined)?.code ??
  (error instanceof Error ? error.message : String(error));

/** The verdict in one clamd answer (without or with its trailing NUL). */
export function parseClamdReply(reply: string): ClamdVerdict {
  const text = reply.replace(/\0+$/, '').trim();
  if (text === 'stream: OK') return { status: 'clean' };
  const found = /^stream: (.+) FOUND$/.exec(text);
  if (found) return { status: 'infected', signature: (found[1] as string).trim() };
  const failed = /^(?:stream: )?(.*?)\s*ERROR$/.exec(text);
  if (failed) return { status: 'error', message: failed[1] || 'ERROR' };
  return { status: 'error', message: `Unexpected answer from ClamAV: ${text.slice(0, 200) || '(empty)'}` };
}

function lengthPrefix(length: number): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(length, 0);
  return header;
}

/**
 * Streams `source` to clamd and resolves with its verdict. Rejects with
 * `ClamdUnavailableError` when clamd cannot be reached or goes silent, and with
 * `ObjectStreamError` when `source` fails. `source` is destroyed when the call settles.
 */
export function scanStream(endpoint: ClamdEndpoint, source: Readable): Promise<ClamdVerdict> {
  const where = `${endpoint.host}:${endpoint.port}`;
  return new Promise<ClamdVerdict>((resolve, reject) => {
    const socket = connect({ host: endpoint.host, port: endpoint.port });
    let connected = false;
    let settled = false;
    let reply = '';

    const settle = (error: Error | null, verdict?: ClamdVerdict) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      if (!source.destroyed) source.destroy();
      if (error) reject(error);
      else resolve(verdict as ClamdVerdict);
    };

    socket.setTimeout(endpoint.timeoutMs, () =>
      settle(
        new ClamdUnavailableError(
          connected
            ? `ClamAV at ${where} did not answer within ${endpoint.timeoutMs} ms`
            : `ClamAV at ${where} did not accept a connection within ${endpoint.timeoutMs} ms`,
        ),
      ),
    );
    socket.on('data', (data: Buffer) => {
      reply += data.toString('utf8');
      if (reply.includes('\0')) settle(null, parseClamdReply(reply.slice(0, reply.indexOf('\0'))));
    });
    socket.once('end', () => {
      if (reply.trim() !== '') settle(null, parseClamdReply(reply));
      else settle(new ClamdUnavailableError(`ClamAV at ${where} closed the connection without an answer`));
    });
    socket.on('error', (error) => {
      if (reply.trim() !== '') settle(null, parseClamdReply(reply));
      else if (!connected)
        settle(new ClamdUnavailableError(`ClamAV is unreachable at ${where}: ${codeOf(error)}`));
      else settle(new ClamdUnavailableError(`Connection to ClamAV at ${where} failed: ${codeOf(error)}`));
    });

    const drained = () =>
      new Promise<void>((resume) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resume();
        };
        socket.once('drain', done);
        socket.once('close', done);
      });

    const pump = async () => {
      socket.write('zINSTREAM\0');
      try {
        for await (const chunk of source) {
          const bytes: Buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string);
          // A zero-length chunk would end the stream early: skip empty reads.
          for (let offset = 0; offset < bytes.length; offset += INSTREAM_MAX_CHUNK_BYTES) {
            if (settled) return;
            const part = bytes.subarray(offset, offset + INSTREAM_MAX_CHUNK_BYTES);
            socket.write(lengthPrefix(part.length));
            if (!socket.write(part)) await drained();
          }
        }
      } catch (error) {
        settle(new ObjectStreamError(`Reading the stored object failed: ${codeOf(error)}`));
        return;
      }
      if (!settled) socket.write(lengthPrefix(0));
    };

    socket.once('connect', () => {
      connected = true;
      void pump();
    });
  });
}

/** True when clamd answers PING with PONG within the endpoint's time limit. */
export function pingClamd(endpoint: ClamdEndpoint): Promise<void> {
  const where = `${endpoint.host}:${endpoint.port}`;
  return new Promise<void>((resolve, reject) => {
    const socket = connect({ host: endpoint.host, port: endpoint.port });
    let reply = '';
    const settle = (error?: Error) => {
      socket.destroy();
      if (error) reject(error);
      else resolve();
    };
    socket.setTimeout(endpoint.timeoutMs, () =>
      settle(new ClamdUnavailableError(`ClamAV at ${where}: no PONG`)),
    );
    socket.once('connect', () => socket.write('zPING\0'));
    socket.on('data', (data: Buffer) => {
      reply += data.toString('utf8');
      if (!reply.includes('\0')) return;
      if (reply.startsWith('PONG')) settle();
      else settle(new ClamdUnavailableError(`ClamAV at ${where} answered PING with ${reply.slice(0, 40)}`));
    });
    socket.once('end', () => settle(new ClamdUnavailableError(`ClamAV at ${where} closed the connection`)));
    socket.on('error', (error) =>
      settle(new ClamdUnavailableError(`ClamAV is unreachable at ${where}: ${codeOf(error)}`)),
    );
  });
}
