/**
 * Fuzzing the import of backup files, plain and password-encrypted (docs/fuzzing.md), through
 * the hook the Import section runs (useImportNotes), signed in over the fake notes API with the
 * real notes crypto. Whatever the file: the import asks for a password, finds nothing to do,
 * imports every note it planned, or fails with 'Failed to import data: …'; never another error,
 * never a partial import (a refused file saves nothing, a taken one saves all its notes).
 */
import { argon2idParamsSchema } from '@vault/contracts';
import { fuzz, fuzzSettings, hostileString, mutationOf } from '@vault/contracts/testing';
import { act } from '@testing-library/react';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_USER } from '../../../../testing/fake-server';
import { sealBackup } from '../../../../workers/notes-ops';
import { FakeNotesApi, renderNotes } from '../../testing/notes-harness';
import { BACKUP_MESSAGES, buildBackup } from '../utils/backup-format';
import { ImportError, useImportNotes, type ImportRequest, type ImportResult } from './use-backup';

/** The protocol floor: the cheapest Argon2id an encrypted backup may ask for. */
const FLOOR = { kdf: 'argon2id' as const, memoryKiB: 19456, iterations: 2, parallelism: 1 };
const PASSWORD = 'fuzzing export password';
const NOW = new Date('2026-11-26T12:00:00.000Z');

type Outcome = { kind: ImportResult['kind'] | 'error'; message?: string; created?: number };

/** Renders the hook once, signed in; `run` imports one file and reports what the API saved. */
async function mountImport() {
  const api = new FakeNotesApi();
  let importNotes: ((request: ImportRequest) => Promise<ImportResult>) | undefined;
  function Probe() {
    importNotes = useImportNotes();
    return null;
  }
  await renderNotes([{ path: '/settings', element: <Probe /> }], { path: '/settings', api });
  const run = async (request: ImportRequest): Promise<{ outcome: Outcome; saved: number }> => {
    const before = api.active.length;
    let outcome: Outcome;
    try {
      const result = await act(() => importNotes!(request));
      outcome = { kind: result.kind, ...('created' in result ? { created: result.created } : {}) };
    } catch (error) {
      // The only failure the Import section expects: an ImportError, said in its words.
      expect(error).toBeInstanceOf(ImportError);
      expect((error as Error).message.startsWith('Failed to import data: ')).toBe(true);
      outcome = { kind: 'error', message: (error as Error).message };
    }
    return { outcome, saved: api.active.length - before };
  };
  return { api, run };
}

/** Never a partial import: what the outcome says is exactly what was saved. */
function expectWhole({ outcome, saved }: { outcome: Outcome; saved: number }): void {
  expect(outcome.kind).not.toBe('partial');
  if (outcome.kind === 'done') expect(saved).toBe(outcome.created);
  else expect(saved).toBe(0);
}

const note = fc.record(
  {
    id: fc.oneof(fc.uuid({ version: 4 }), hostileString(20), fc.integer()),
    title: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
    content: fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 1 })),
    tags: fc.oneof(
      fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    createdAt: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      hostileString(30),
    ),
    updatedAt: fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      hostileString(30),
    ),
  },
  { requiredKeys: [] },
);
const plainFile = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.array(note, { maxLength: 4 }).map((notes) => JSON.stringify({ version: '1.0', notes })),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.record({ id: fc.uuid({ version: 4 }), title: fc.string({ maxLength: 10 }) }), {
        minLength: 1,
        maxLength: 3,
      })
      .map((notes) =>
        JSON.stringify(
          buildBackup(
            notes.map((n) => ({
              ...n,
              content: '',
              tags: [],
              createdAt: NOW.toISOString(),
              updatedAt: NOW.toISOString(),
            })),
            TEST_USER,
            NOW,
          ),
        ),
      )
      .chain((text) => fc.oneof(fc.constant(text), mutationOf(text))),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: hostileString(200) },
);

describe('backup import (fuzz)', () => {
  const plain = fuzzSettings(100, 60_000);
  it(
    plain.title(
      'plain files: a whole import or a clear failure, never another error, never a partial import',
    ),
    async () => {
      const { run } = await mountImport();
      await fuzz(
        fc.asyncProperty(plainFile, async (text) => {
          const result = await run({ text });
          expectWhole(result);
          // A plain file never asks for a password.
          expect(result.outcome.kind).not.toBe('needs-password');
        }),
        plain,
      );
    },
    plain.timeoutMs,
  );

  describe('encrypted files', () => {
    let envelope: Record<string, unknown>;
    beforeAll(async () => {
      const backup = buildBackup(
        [
          {
            id: '11111111-1111-4111-8111-111111111111',
            title: 'T',
            content: 'C',
            tags: ['t'],
            createdAt: NOW.toISOString(),
            updatedAt: NOW.toISOString(),
          },
        ],
        TEST_USER,
        NOW,
      );
      envelope = { ...(await sealBackup(PASSWORD, JSON.stringify(backup), FLOOR)) };
    }, 60_000);

    /**
     * The envelope with one field changed. KDF parameters are changed only into ones the
     * protocol refuses (or back to the floor): a valid but costly set (1 GiB of Argon2id) would
     * be honoured, by design, and make a run take minutes.
     */
    const changedEnvelope = () =>
      fc.constantFrom('format', 'version', 'salt', 'data', 'kdfParams', 'extra').chain((field) => {
        const current = envelope[field];
        const value =
          field === 'kdfParams'
            ? fc
                .oneof(
                  fc.jsonValue({ maxDepth: 2 }),
                  fc
                    .oneof(fc.integer(), fc.double(), fc.string())
                    .map((memoryKiB) => ({ ...FLOOR, memoryKiB })),
                  fc.constant(FLOOR),
                )
                .filter(
                  (p) =>
                    !argon2idParamsSchema.safeParse(p).success || JSON.stringify(p) === JSON.stringify(FLOOR),
                )
            : typeof current === 'string'
              ? fc.oneof(mutationOf(current), fc.jsonValue({ maxDepth: 1 }))
              : fc.jsonValue({ maxDepth: 1 });
        return value.map((v) => JSON.stringify({ ...envelope, [field]: v }));
      });

    const encrypted = fuzzSettings(25, 120_000);
    it(
      encrypted.title(
        'a changed envelope or a wrong password: a clear failure and nothing saved; the right one imports whole',
      ),
      async () => {
        const { run } = await mountImport();
        await fuzz(
          fc.asyncProperty(
            changedEnvelope(),
            fc.oneof(
              fc.constant(PASSWORD),
              fc.constant(undefined),
              fc.string({ minLength: 1, maxLength: 30 }),
            ),
            async (text, password) => {
              const result = await run(password === undefined ? { text } : { text, password });
              expectWhole(result);
              if (result.outcome.kind === 'error' && password !== PASSWORD && password !== undefined) {
                // A wrong password (or a changed file) is said plainly, not as a crash.
                expect([
                  BACKUP_MESSAGES.importFailed(BACKUP_MESSAGES.wrongPassword),
                  BACKUP_MESSAGES.importFailed(BACKUP_MESSAGES.invalidFormat),
                ]).toContain(result.outcome.message);
              }
            },
          ),
          encrypted,
        );
      },
      encrypted.timeoutMs,
    );
  });
});
