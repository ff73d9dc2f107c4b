/**
 * Fuzzing the backup file's parser (docs/fuzzing.md): any text, any JSON and near-valid mutations
 * of a real export go through parseJson and parseBackup, then planImport. The only refusal is
 * BackupFormatError with 'Invalid backup file format'; what is taken is clean (strings, tags
 * trimmed, non-empty and unique, usable dates in order), never more notes than the file has, and
 * the plan gives each a UUID v4 of its own.
 */
import { NOTE_DATE_MAX_SKEW_MS, NOTE_DATE_MIN } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BACKUP_MESSAGES,
  BackupFormatError,
  buildBackup,
  parseBackup,
  parseJson,
  type ImportCandidate,
} from './backup-format';
import { isUuidV4, planImport } from './import-notes';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const USER = { email: 'fuzz@example.org', id: '6f1c2b9e-4a57-4c1e-9d4b-0d7e3c1a2b3c' };

/** A note as this app exports it, with any text in it. */
const exportedNote = fc.record({
  id: fc.uuid({ version: 4 }),
  title: fc.string({ unit: 'grapheme', maxLength: 30 }),
  content: fc.string({ unit: 'grapheme', maxLength: 80 }),
  tags: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  createdAt: fc
    .date({ min: new Date(NOTE_DATE_MIN), max: NOW, noInvalidDate: true })
    .map((d) => d.toISOString()),
  updatedAt: fc
    .date({ min: new Date(NOTE_DATE_MIN), max: NOW, noInvalidDate: true })
    .map((d) => d.toISOString()),
});
const exportText = fc
  .array(exportedNote, { maxLength: 4 })
  .map((notes) => JSON.stringify(buildBackup(notes, USER, NOW), null, 2));

/** A note entry with fields of any kind, and the file around it of any shape. */
const looseNote = fc.dictionary(
  fc.constantFrom('id', '_id', 'title', 'content', 'tags', 'createdAt', 'updatedAt', '__proto__', 'other'),
  fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    hostileString(30),
    fc.array(fc.oneof(hostileString(10), fc.integer(), fc.constant(null)), { maxLength: 4 }),
    fc
      .date({ noInvalidDate: false })
      .map((d) => (Number.isNaN(d.getTime()) ? 'Invalid Date' : d.toISOString())),
  ),
);
const looseFile = fc.oneof(
  fc.record({ notes: fc.array(fc.oneof(looseNote, fc.jsonValue({ maxDepth: 1 })), { maxLength: 6 }) }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.anything(),
);

/** What parseBackup guarantees of every note it takes. */
function expectClean(candidates: ImportCandidate[], fileNotes: unknown): void {
  expect(candidates.length).toBeLessThanOrEqual(Array.isArray(fileNotes) ? fileNotes.length : 0);
  for (const c of candidates) {
    expect(typeof c.title).toBe('string');
    expect(typeof c.content).toBe('string');
    expect(c.sourceId === null || (typeof c.sourceId === 'string' && c.sourceId === c.sourceId.trim())).toBe(
      true,
    );
    expect(new Set(c.tags).size).toBe(c.tags.length);
    for (const tag of c.tags) expect(tag.length > 0 && tag === tag.trim()).toBe(true);
    if (c.dates) {
      const [created, updated] = [Date.parse(c.dates.createdAt), Date.parse(c.dates.updatedAt)];
      expect(new Date(created).toISOString()).toBe(c.dates.createdAt);
      expect(created <= updated).toBe(true);
      expect(created >= Date.parse(NOTE_DATE_MIN)).toBe(true);
      expect(updated <= NOW.getTime() + NOTE_DATE_MAX_SKEW_MS).toBe(true);
    }
  }
}

/** parseJson then parseBackup; a refusal must be the format error. */
function read(text: string): { candidates: ImportCandidate[]; notes: unknown } | 'refused' {
  try {
    const value = parseJson(text);
    const candidates = parseBackup(value, NOW);
    return { candidates, notes: (value as { notes?: unknown }).notes };
  } catch (error) {
    expect(error).toBeInstanceOf(BackupFormatError);
    expect((error as Error).message).toBe(BACKUP_MESSAGES.invalidFormat);
    return 'refused';
  }
}

describe('backup file parser (fuzz)', () => {
  const texts = fuzzSettings(1_000);
  it(
    texts.title('any text, any JSON: the format error, or clean notes no more than the file has'),
    async () => {
      await fuzz(
        fc.property(
          fc.oneof(
            hostileString(300),
            looseFile.map((v) => JSON.stringify(v) ?? 'undefined'),
          ),
          (text) => {
            const result = read(text);
            if (result !== 'refused') expectClean(result.candidates, result.notes);
          },
        ),
        texts,
      );
    },
    texts.timeoutMs,
  );

  const mutated = fuzzSettings(500);
  it(
    mutated.title('a real export comes back whole; a near-valid mutation of it is refused or read clean'),
    async () => {
      await fuzz(
        fc.property(
          exportText.chain((text) => fc.tuple(fc.constant(text), mutationOf(text))),
          ([text, changed]) => {
            const whole = read(text);
            if (whole === 'refused') throw new Error('a real export was refused');
            const file = JSON.parse(text) as { notes: Array<{ id: string }> };
            expect(whole.candidates.map((c) => c.sourceId)).toEqual(file.notes.map((n) => n.id));
            const result = read(changed);
            if (result !== 'refused') expectClean(result.candidates, result.notes);
          },
        ),
        mutated,
      );
    },
    mutated.timeoutMs,
  );

  const plans = fuzzSettings(150);
  it(
    plans.title('planImport gives every taken note its own UUID v4 and counts the rest as skipped'),
    async () => {
      await fuzz(
        fc.asyncProperty(
          looseFile,
          fc.array(fc.uuid({ version: 4 }), { maxLength: 3 }),
          async (file, existing) => {
            let candidates: ImportCandidate[];
            try {
              candidates = parseBackup(file, NOW);
            } catch (error) {
              expect(error).toBeInstanceOf(BackupFormatError);
              return;
            }
            const plan = await planImport(candidates, new Set(existing), USER.id);
            expect(plan.create.length + plan.skipped).toBe(candidates.length);
            const ids = plan.create.map((n) => n.id);
            for (const id of ids) expect(isUuidV4(id)).toBe(true);
            expect(new Set(ids).size).toBe(ids.length);
            for (const id of ids) expect(existing).not.toContain(id);
          },
        ),
        plans,
      );
    },
    plans.timeoutMs,
  );
});
