/**
 * Fuzzing the notes list cursor (docs/fuzzing.md): `GET /api/notes?cursor=` hands any text to
 * decodeCursor. It answers undefined (the route's 400 'Invalid cursor') or a position that is
 * exactly what the text encodes: a real date, a stored order within PostgreSQL's bigint, a UUID
 * v4, and the text its only spelling; never an exception.
 */
import fc from 'fast-check';
import { UUID_V4_RE } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import { decodeCursor, encodeCursor, type NoteCursor } from './note-cursor';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** Payload-shaped text: numbers of any size and sign, ids of any shape, any separators. */
const payloadLike = fc
  .tuple(
    fc.oneof(
      fc.bigInt(),
      fc.integer({ min: -1, max: 253_402_300_800_000 }).map(String),
      fc.string({ maxLength: 20 }),
    ),
    fc.constantFrom(':', '::', '|', ''),
    fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 70n }), fc.constant(MAX_BIGINT), fc.constant(MAX_BIGINT + 1n)),
    fc.oneof(fc.uuid(), fc.uuid({ version: 4 }), fc.string({ maxLength: 40 })),
  )
  .map(([ms, sep, order, id]) => b64(`${ms}${sep}${order}:${id}`));

/** A real position: any millisecond of years 1970 to 9999, any bigint order, a UUID v4. */
const position: fc.Arbitrary<NoteCursor> = fc.record({
  updatedAt: fc.integer({ min: 0, max: 253_402_300_799_999 }).map((ms) => new Date(ms)),
  storedOrder: fc.bigInt({ min: 0n, max: MAX_BIGINT }).map(String),
  id: fc.uuid({ version: 4 }),
});

function checkDecoded(text: string, cursor: NoteCursor | undefined): void {
  if (cursor === undefined) return;
  expect(Number.isNaN(cursor.updatedAt.getTime())).toBe(false);
  expect(BigInt(cursor.storedOrder) <= MAX_BIGINT && BigInt(cursor.storedOrder) >= 0n).toBe(true);
  expect(cursor.id).toMatch(UUID_V4_RE);
  expect(encodeCursor(cursor)).toBe(text);
}

describe('notes list cursor (fuzz)', () => {
  const any = fuzzSettings(2_000);
  it(
    any.title('any text decodes to undefined or to exactly the position it spells'),
    async () => {
      await fuzz(
        fc.property(fc.oneof(hostileString(), payloadLike, fc.base64String({ maxLength: 120 })), (text) => {
          checkDecoded(text, decodeCursor(text));
        }),
        any,
      );
    },
    any.timeoutMs,
  );

  const roundTrip = fuzzSettings(1_000);
  it(
    roundTrip.title(
      'every real position round-trips; a near-valid mutation of its cursor decodes to undefined or its own position',
    ),
    async () => {
      await fuzz(
        fc.property(
          position.chain((p) => fc.tuple(fc.constant(p), mutationOf(encodeCursor(p)))),
          ([p, mutated]) => {
            expect(decodeCursor(encodeCursor(p))).toEqual(p);
            checkDecoded(mutated, decodeCursor(mutated));
          },
        ),
        roundTrip,
      );
    },
    roundTrip.timeoutMs,
  );
});
