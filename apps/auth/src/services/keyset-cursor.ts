import { ADMIN_MESSAGES, ErrorCode, UUID_V4_RE, VaultError } from '@vault/contracts';

/**
 * Opaque page cursors (the admin lists and the user's own events): base64url of
 * `position|id`, where position is an exact UTC timestamp (events) or epoch milliseconds
 * (sessions). Anything else, a tampered or a truncated cursor, is 400 'Invalid cursor'.
 */
const EVENT_AT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const EPOCH_MS_RE = /^\d{1,15}$/;

export function encodeCursor(position: string | number, id: string): string {
  return Buffer.from(`${position}|${id}`, 'utf8').toString('base64url');
}

function decode(cursor: string, positionRe: RegExp): { position: string; id: string } {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const [position, id, ...rest] = text.split('|');
  if (rest.length > 0 || !position || !id || !positionRe.test(position) || !UUID_V4_RE.test(id)) {
    throw new VaultError(ErrorCode.VALIDATION_FAILED, ADMIN_MESSAGES.invalidCursor);
  }
  return { position, id };
}

/** An event cursor: the exact created_at (microseconds) and the event id. */
export function decodeEventCursor(cursor: string): { at: string; id: string } {
  const { position, id } = decode(cursor, EVENT_AT_RE);
  // A real instant (no 30 February, no year 0), so Postgres never sees a timestamp it would refuse.
  const ms = Date.parse(`${position.slice(0, 19)}Z`);
  if (
    Number.isNaN(ms) ||
    position.startsWith('0000') ||
    new Date(ms).toISOString().slice(0, 19) !== position.slice(0, 19)
  ) {
    throw new VaultError(ErrorCode.VALIDATION_FAILED, ADMIN_MESSAGES.invalidCursor);
  }
  return { at: position, id };
}

/** A session cursor: its expiresAt (epoch ms) and the session id. */
export function decodeSessionCursor(cursor: string): { expiresAt: number; id: string } {
  const { position, id } = decode(cursor, EPOCH_MS_RE);
  return { expiresAt: Number(position), id };
}
