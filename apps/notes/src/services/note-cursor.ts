import { UUID_V4_RE } from '@vault/contracts';

/**
 * The list cursor: where the previous page ended in the list's order (updated_at desc,
 * stored_order asc, id desc). Opaque to clients: base64url of
 * `<updatedAt epoch ms>:<storedOrder>:<id>`. Timestamps are stored with millisecond precision,
 * so the position is exact.
 */
export interface NoteCursor {
  updatedAt: Date;
  /** NoteEntity.storedOrder: a non-negative bigint as a decimal string. */
  storedOrder: string;
  id: string;
}

const BASE64URL_RE = /^[A-Za-z0-9_-]+$/;
const PAYLOAD_RE = /^(\d{1,15}):(\d{1,19}):([0-9a-f-]{36})$/;
/** 9999-12-31T23:59:59.999Z: the last instant with a plain four-digit-year ISO form. */
const MAX_EPOCH_MS = 253_402_300_799_999;
/** PostgreSQL's largest bigint. */
const MAX_BIGINT = 9_223_372_036_854_775_807n;

export function encodeCursor(cursor: NoteCursor): string {
  return Buffer.from(`${cursor.updatedAt.getTime()}:${cursor.storedOrder}:${cursor.id}`, 'utf8').toString(
    'base64url',
  );
}

/** The position a cursor names, or undefined for anything this service did not make. */
export function decodeCursor(text: string): NoteCursor | undefined {
  if (text.length === 0 || text.length > 200 || !BASE64URL_RE.test(text)) return undefined;
  const match = PAYLOAD_RE.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match) return undefined;
  const ms = Number(match[1]);
  const order = BigInt(match[2] ?? '');
  const id = match[3] ?? '';
  if (!Number.isSafeInteger(ms) || ms > MAX_EPOCH_MS || !UUID_V4_RE.test(id)) return undefined;
  if (order > MAX_BIGINT) return undefined;
  const cursor = { updatedAt: new Date(ms), storedOrder: order.toString(), id };
  // Only the canonical spelling: one position, one cursor.
  return encodeCursor(cursor) === text ? cursor : undefined;
}
