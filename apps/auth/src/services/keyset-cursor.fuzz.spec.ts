/**
 * Fuzzing the keyset cursors of the admin console's lists and of the user's own security events
 * (docs/fuzzing.md): any text is refused with 400 'Invalid cursor' or decodes to a position that
 * PostgreSQL takes as it is (an event's exact timestamp, a session's epoch milliseconds) and a
 * UUID v4; never another exception, and never a value the database would refuse (a 500).
 */
import fc from 'fast-check';
import { ADMIN_MESSAGES, ErrorCode, UUID_V4_RE, VaultError } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import { decodeEventCursor, decodeSessionCursor, encodeCursor } from './keyset-cursor';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
/** PostgreSQL's timestamps: 4713 BC to 294276 AD, with no year 0; the cursor's form has four-digit years. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');

/** The decoded value, or the refusal (which must be the 400 'Invalid cursor'). */
function decodeOrRefuse<T>(decode: () => T): T | 'refused' {
  try {
    return decode();
  } catch (error) {
    if (!(error instanceof VaultError)) throw error;
    expect({ code: error.code, message: error.message }).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: ADMIN_MESSAGES.invalidCursor,
    });
    return 'refused';
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Timestamp-shaped text with any field values, real or not (month 13, 30 February, year 0). */
const timestampLike = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 999_999 }),
  )
  .map(
    ([y, mo, d, h, mi, s, us]) =>
      `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(us, 6)}Z`,
  );
const idLike = fc.oneof(fc.uuid({ version: 4 }), fc.uuid(), fc.string({ maxLength: 40 }));
const eventCursorLike = fc.oneof(
  fc.tuple(timestampLike, idLike).map(([at, id]) => b64(`${at}|${id}`)),
  fc
    .tuple(
      fc.oneof(fc.nat().map(String), fc.bigInt().map(String), timestampLike),
      fc.constantFrom('|', '||', ':'),
      idLike,
    )
    .map(([p, sep, id]) => b64(`${p}${sep}${id}`)),
  hostileString(),
);

describe('admin keyset cursors (fuzz)', () => {
  const events = fuzzSettings(2_000);
  it(
    events.title('an event cursor is refused, or decodes to a real timestamp PostgreSQL takes and a UUID v4'),
    async () => {
      await fuzz(
        fc.property(eventCursorLike, (cursor) => {
          const decoded = decodeOrRefuse(() => decodeEventCursor(cursor));
          if (decoded === 'refused') return;
          expect(decoded.id).toMatch(UUID_V4_RE);
          const ms = Date.parse(decoded.at);
          expect(ms >= FIRST_INSTANT).toBe(true);
          expect(new Date(ms).toISOString().slice(0, 19)).toBe(decoded.at.slice(0, 19));
          expect(encodeCursor(decoded.at, decoded.id)).toBe(cursor);
        }),
        events,
      );
    },
    events.timeoutMs,
  );

  const sessions = fuzzSettings(1_000);
  it(
    sessions.title('a session cursor is refused, or decodes to safe epoch milliseconds and a UUID v4'),
    async () => {
      const sessionLike = fc.oneof(
        fc
          .tuple(
            fc.oneof(fc.nat().map(String), fc.bigInt().map(String), fc.string({ maxLength: 18 })),
            idLike,
          )
          .map(([p, id]) => b64(`${p}|${id}`)),
        fc.tuple(fc.nat(), fc.uuid({ version: 4 })).chain(([ms, id]) => mutationOf(encodeCursor(ms, id))),
        hostileString(),
      );
      await fuzz(
        fc.property(sessionLike, (cursor) => {
          const decoded = decodeOrRefuse(() => decodeSessionCursor(cursor));
          if (decoded === 'refused') return;
          expect(Number.isSafeInteger(decoded.expiresAt) && decoded.expiresAt >= 0).toBe(true);
          expect(Number.isNaN(new Date(decoded.expiresAt).getTime())).toBe(false);
          expect(decoded.id).toMatch(UUID_V4_RE);
        }),
        sessions,
      );
    },
    sessions.timeoutMs,
  );

  const roundTrip = fuzzSettings(500);
  it(
    roundTrip.title('every real event position round-trips'),
    async () => {
      const at = fc
        .tuple(
          fc.integer({ min: FIRST_INSTANT, max: Date.parse('9999-12-31T23:59:59.999Z') }),
          fc.integer({ min: 0, max: 999 }),
        )
        .map(([ms, extra]) => `${new Date(ms).toISOString().slice(0, 23)}${pad(extra, 3)}Z`);
      await fuzz(
        fc.property(at, fc.uuid({ version: 4 }), (position, id) => {
          expect(decodeEventCursor(encodeCursor(position, id))).toEqual({ at: position, id });
        }),
        roundTrip,
      );
    },
    roundTrip.timeoutMs,
  );
});

describe('admin keyset cursors: regressions found by fuzzing', () => {
  it('refuses an event cursor in the year 0, which PostgreSQL refuses (a 500 before)', () => {
    // Seed 20261126, the first property: base64url of '0000-…Z|<uuid v4>'.
    const cursor = b64('0000-01-01T00:00:00.000000Z|3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7b');
    expect(cursor).toBe(
      'MDAwMC0wMS0wMVQwMDowMDowMC4wMDAwMDBafDNmMmI4YzFlLTlkNGEtNGU2Zi04YTFiLTJjM2Q0ZTVmNmE3Yg',
    );
    expect(decodeOrRefuse(() => decodeEventCursor(cursor))).toBe('refused');
  });
});
