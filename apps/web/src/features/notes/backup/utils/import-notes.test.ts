import { NOTE_BATCH_MAX_BYTES, sealedNoteBytes, type NoteDto } from '@vault/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../lib/api-error';
import type { SealedNoteFields } from '../../../../workers/notes-messages';
import { withRateLimitRetry } from '../../api/rate-limit';
import { derivedNoteId, planImport, runImport, splitIntoBatches, type PlannedNote } from './import-notes';

const noWait = () => Promise.resolve();
const planned = (n: number): PlannedNote[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    plain: { title: `T${i}`, content: '', tags: [] },
  }));
const sealedFor = (id: string, contentBytes = 1): SealedNoteFields => ({
  id,
  title: `t-${id}`,
  content: 'c'.repeat(contentBytes),
  tags: ['g'],
  wrappedDEK: 'w',
});
const dto = (s: SealedNoteFields) => ({ ...s, isEncrypted: true, isDeleted: false }) as unknown as NoteDto;

describe('withRateLimitRetry', () => {
  it('waits for Retry-After on 429 and tries again', async () => {
    const sleep = vi.fn(noWait);
    const onWait = vi.fn();
    let n = 0;
    const result = await withRateLimitRetry(
      async () => {
        if (++n < 3) throw new ApiError(429, 'Too many requests', { retryAfter: 7 });
        return 'ok';
      },
      { sleep, onWait },
    );
    expect(result).toBe('ok');
    expect(sleep).toHaveBeenCalledWith(7000);
    expect(onWait).toHaveBeenCalledTimes(2);
  });

  it('does not retry other errors, and gives up after the attempts', async () => {
    await expect(
      withRateLimitRetry(() => Promise.reject(new ApiError(400, 'Bad')), { sleep: noWait }),
    ).rejects.toThrow('Bad');
    const call = vi.fn(() => Promise.reject(new ApiError(429, 'Slow down')));
    await expect(withRateLimitRetry(call, { attempts: 3, sleep: noWait })).rejects.toThrow('Slow down');
    expect(call).toHaveBeenCalledTimes(3);
  });
});

describe('splitIntoBatches', () => {
  const item = (i: number, contentBytes = 1) => ({ sealed: sealedFor(String(i), contentBytes) });

  it('keeps the order and cuts at the note count', () => {
    const batches = splitIntoBatches(
      Array.from({ length: 7 }, (_, i) => item(i)),
      3,
      NOTE_BATCH_MAX_BYTES,
    );
    expect(batches.map((b) => b.map((n) => n.sealed.id))).toEqual([['0', '1', '2'], ['3', '4', '5'], ['6']]);
  });

  it('cuts before a note that would take a batch over the bytes, and sends an oversized note alone', () => {
    const notes = [item(0, 40), item(1, 40), item(2, 500), item(3, 10)];
    const bytes = sealedNoteBytes(notes[0]!.sealed) + sealedNoteBytes(notes[1]!.sealed);
    const batches = splitIntoBatches(notes, 100, bytes);
    expect(batches.map((b) => b.map((n) => n.sealed.id))).toEqual([['0', '1'], ['2'], ['3']]);
  });
});

describe('runImport', () => {
  const ids = (batch: SealedNoteFields[]) => batch.map((n) => n.id);
  /** A createBatch that records each batch's ids in `calls` and answers 409 for a batch holding `takenId`. */
  const refusingId =
    (takenId: string, calls: string[][]) =>
    async (batch: SealedNoteFields[]): Promise<NoteDto[]> => {
      calls.push(ids(batch));
      if (batch.some((n) => n.id === takenId)) {
        throw new ApiError(409, 'A different note with this id already exists', {
          code: 'CONFLICT',
          body: { ids: [takenId] },
        });
      }
      return batch.map(dto);
    };

  it('creates the notes in batches of at most 100, reporting progress after each batch', async () => {
    const notes = planned(250);
    const progress: number[] = [];
    const sizes: number[] = [];
    const createdPlain: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const outcome = await runImport(notes, {
      encrypt: async (id) => sealedFor(id),
      createBatch: async (batch) => {
        sizes.push(batch.length);
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        return batch.map(dto);
      },
      onProgress: (p) => progress.push(p.done),
      onCreated: (note, plain) => createdPlain.push(`${note.id}=${plain.title}`),
    });

    expect(outcome).toEqual({ created: 250, failed: 0, firstError: null });
    expect(sizes).toEqual([100, 100, 50]);
    expect(progress).toEqual([0, 100, 200, 250]);
    // One request at a time, so that the server stores the batches in the file's order.
    expect(maxInFlight).toBe(1);
    expect(createdPlain.sort()).toEqual(notes.map((n) => `${n.id}=${n.plain.title}`).sort());
  });

  it('sends the notes of a batch in the order planned', async () => {
    const notes = planned(5);
    const sent: string[][] = [];
    await runImport(notes, {
      encrypt: async (id) => {
        await new Promise((r) => setTimeout(r, Number(id.slice(-1)) % 2 ? 3 : 0));
        return sealedFor(id);
      },
      createBatch: async (batch) => {
        sent.push(ids(batch));
        return batch.map(dto);
      },
    });
    expect(sent).toEqual([notes.map((n) => n.id)]);
  });

  it('sends the batches one after another in the planned order, sealing the next ones meanwhile', async () => {
    const notes = planned(350);
    const events: string[] = [];
    const sealingAtSend: number[] = [];
    let sealing = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    await runImport(notes, {
      encrypt: async (id) => {
        sealing++;
        // Later notes take longer to seal: they are still being sealed while earlier batches travel.
        await new Promise((r) => setTimeout(r, Number(id.slice(-3)) >= 100 ? 4 : 0));
        sealing--;
        return sealedFor(id);
      },
      createBatch: async (batch) => {
        sealingAtSend.push(sealing);
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        events.push(`send ${batch[0]!.id.slice(-3)}..${batch[batch.length - 1]!.id.slice(-3)}`);
        // The first batch is the slowest to answer: the others still wait for it.
        await new Promise((r) => setTimeout(r, events.length === 1 ? 10 : 1));
        inFlight--;
        return batch.map(dto);
      },
      concurrency: 3,
    });
    expect(events).toEqual(['send 000..099', 'send 100..199', 'send 200..299', 'send 300..349']);
    expect(maxInFlight).toBe(1);
    expect(sealingAtSend[0]).toBeGreaterThan(0);
    expect(sealing).toBe(0);
  });

  it('sends each note with the dates of its backup, and without them when it has none', async () => {
    const notes: PlannedNote[] = planned(3).map((n, i) =>
      i === 1
        ? n
        : {
            ...n,
            dates: {
              createdAt: `2021-01-0${i + 1}T00:00:00.000Z`,
              updatedAt: `2021-02-0${i + 1}T00:00:00.000Z`,
            },
          },
    );
    const sent: Array<Record<string, unknown>> = [];
    const created: NoteDto[] = [];
    await runImport(notes, {
      encrypt: async (id) => sealedFor(id),
      createBatch: async (batch) => {
        sent.push(...batch.map((n) => ({ ...n })));
        return batch.map(dto);
      },
      onCreated: (note) => created.push(note),
    });
    expect(sent.map((n) => [n['id'], n['createdAt'], n['updatedAt']])).toEqual([
      [notes[0]!.id, '2021-01-01T00:00:00.000Z', '2021-02-01T00:00:00.000Z'],
      [notes[1]!.id, undefined, undefined],
      [notes[2]!.id, '2021-01-03T00:00:00.000Z', '2021-02-03T00:00:00.000Z'],
    ]);
    expect(sent[1]).not.toHaveProperty('createdAt');
    expect(created.map((n) => n.id)).toEqual(notes.map((n) => n.id));
  });

  it('keeps each request within the sealed-bytes limit of a batch', async () => {
    const sizes: number[] = [];
    const outcome = await runImport(planned(5), {
      encrypt: async (id) => sealedFor(id, 400_000),
      createBatch: async (batch) => {
        sizes.push(batch.length);
        expect(batch.reduce((n, s) => n + sealedNoteBytes(s), 0)).toBeLessThanOrEqual(NOTE_BATCH_MAX_BYTES);
        return batch.map(dto);
      },
      concurrency: 1,
    });
    expect(outcome.created).toBe(5);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('rides out the rate limit (429) with the same batch', async () => {
    const calls: string[][] = [];
    let limited = 2;
    const onWait = vi.fn();
    const outcome = await runImport(planned(3), {
      encrypt: async (id) => sealedFor(id),
      createBatch: async (batch) => {
        calls.push(ids(batch));
        if (limited-- > 0) throw new ApiError(429, 'Too many requests', { retryAfter: 1 });
        return batch.map(dto);
      },
      onWait,
      sleep: noWait,
    });
    expect(outcome).toEqual({ created: 3, failed: 0, firstError: null });
    expect(onWait).toHaveBeenCalledTimes(2);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.join()))).toEqual(new Set([calls[0]!.join()]));
  });

  it('re-seals only the notes whose ids the 409 names under new ids, and sends the batch again', async () => {
    const notes = planned(3);
    const taken = notes[1]!;
    const calls: string[][] = [];
    const encrypted: string[] = [];
    const created = vi.fn();
    const outcome = await runImport(notes, {
      encrypt: async (id, plain) => {
        encrypted.push(`${id}=${plain.title}`);
        return sealedFor(id);
      },
      createBatch: refusingId(taken.id, calls),
      onCreated: created,
      sleep: noWait,
    });

    expect(outcome).toEqual({ created: 3, failed: 0, firstError: null });
    expect(calls).toHaveLength(2);
    expect(calls[1]![0]).toBe(notes[0]!.id);
    expect(calls[1]![2]).toBe(notes[2]!.id);
    expect(calls[1]![1]).not.toBe(taken.id);
    expect(encrypted).toHaveLength(4);
    expect(encrypted[3]).toBe(`${calls[1]![1]}=${taken.plain.title}`);
    expect(created).toHaveBeenCalledWith(expect.objectContaining({ id: calls[1]![1] }), taken.plain);
  });

  it("saves a note whose id another account holds under the id derived from the user's id, so a second import skips it", async () => {
    const userId = '11111111-1111-4111-8111-111111111111';
    const notes = planned(2);
    const foreign = notes[0]!;
    const calls: string[][] = [];
    const outcome = await runImport(notes, {
      encrypt: async (id) => sealedFor(id),
      createBatch: refusingId(foreign.id, calls),
      userId,
      sleep: noWait,
    });
    expect(outcome.created).toBe(2);
    const derived = await derivedNoteId(userId, foreign.id);
    expect(calls[1]![0]).toBe(derived);

    // The same backup again: its note is found under the derived id and skipped.
    const candidates = notes.map((n) => ({ sourceId: n.id, title: n.plain.title, content: '', tags: [] }));
    const plan = await planImport(candidates, new Set([derived, notes[1]!.id]), userId);
    expect(plan).toEqual({ create: [], skipped: 2 });
  });

  it('sends the same batch again after a lost answer (a no-op for what landed)', async () => {
    const calls: string[][] = [];
    const outcome = await runImport(planned(2), {
      encrypt: async (id) => sealedFor(id),
      createBatch: async (batch) => {
        calls.push(ids(batch));
        if (calls.length === 1) throw new ApiError(0, 'Network error');
        return batch.map(dto);
      },
    });
    expect(outcome.created).toBe(2);
    expect(calls).toEqual([calls[0], calls[0]]);
  });

  it('counts failures without stopping the others: a refused batch is sent one note at a time', async () => {
    const calls: number[] = [];
    const outcome = await runImport(planned(4), {
      encrypt: async (id) => sealedFor(id),
      createBatch: async (batch) => {
        calls.push(batch.length);
        if (batch.some((s) => s.id.endsWith('2')))
          throw new ApiError(413, 'Note is too large: at most 1 MiB encrypted');
        return batch.map(dto);
      },
      sleep: noWait,
    });
    expect(outcome).toEqual({
      created: 3,
      failed: 1,
      firstError: 'Note is too large: at most 1 MiB encrypted',
    });
    expect(calls).toEqual([4, 1, 1, 1, 1]);
  });

  it('fails the whole batch when the server cannot take it, without one request per note', async () => {
    const progress: number[] = [];
    const createBatch = vi.fn(() => Promise.reject(new ApiError(503, 'Service unavailable')));
    const outcome = await runImport(planned(3), {
      encrypt: async (id) => sealedFor(id),
      createBatch,
      onProgress: (p) => progress.push(p.done),
    });
    expect(outcome).toEqual({ created: 0, failed: 3, firstError: 'Service unavailable' });
    expect(createBatch).toHaveBeenCalledTimes(1);
    expect(progress).toEqual([0, 3]);
  });

  it('counts a note that cannot be sealed as failed and saves the rest', async () => {
    const notes = planned(3);
    const outcome = await runImport(notes, {
      encrypt: async (id) => {
        if (id === notes[1]!.id) throw new Error('The encryption worker could not start');
        return sealedFor(id);
      },
      createBatch: async (batch) => batch.map(dto),
    });
    expect(outcome).toEqual({ created: 2, failed: 1, firstError: 'The encryption worker could not start' });
  });
});
