import { connect } from 'node:net';
import type { SystemHealth } from '@vault/contracts';

export type ClamdHealth = SystemHealth['clamd'];

const DOWN: ClamdHealth = {
  status: 'down',
  version: null,
  signatureVersion: null,
  signatureDate: null,
  signatureAgeHours: null,
};

/**
 * Reads clamd's VERSION answer, `ClamAV 1.4.3/27470/Tue Nov 25 08:37:00 2026` (engine, signature
 * database number, its date; the date is clamd's local time, read here as UTC, which is what
 * containers run in). Without a database clamd answers only `ClamAV 1.4.3`. Anything else is null.
 */
export function parseClamdVersion(reply: string, now = new Date()): ClamdHealth | null {
  const match = /^(ClamAV [^/\s]+)(?:\/(\d+)\/(.+))?$/.exec(reply.replace(/\0/g, '').trim());
  if (!match) return null;
  const [, version, signature, dateText] = match;
  const parsed = dateText ? new Date(`${dateText.replace(/^\w{3} /, '')} UTC`) : undefined;
  const date = parsed && !Number.isNaN(parsed.getTime()) ? parsed : undefined;
  return {
    status: 'up',
    version: version ?? null,
    signatureVersion: signature ? Number(signature) : null,
    signatureDate: date ? date.toISOString() : null,
    signatureAgeHours: date ? Math.max(0, Math.floor((now.getTime() - date.getTime()) / 3_600_000)) : null,
  };
}

/** Asks clamd `zVERSION` over TCP; down on a refusal, a timeout or an answer it cannot read. */
export function clamdHealth(address: { host: string; port: number }, timeoutMs = 2000): Promise<ClamdHealth> {
  return new Promise((resolve) => {
    let reply = '';
    let settled = false;
    const socket = connect(address);
    const finish = (health: ClamdHealth) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(health);
    };
    socket.setTimeout(timeoutMs, () => finish(DOWN));
    socket.on('connect', () => socket.write('zVERSION\0'));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      // The z-form answer ends with NUL; a few hundred bytes is more than a version ever takes.
      if (reply.includes('\0') || reply.length > 1024) finish(parseClamdVersion(reply) ?? DOWN);
    });
    socket.on('end', () => finish(parseClamdVersion(reply) ?? DOWN));
    socket.on('error', () => finish(DOWN));
  });
}
