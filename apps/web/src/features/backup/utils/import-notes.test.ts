import type { NoteDto } from '@vault/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import type { SealedNoteFields } from '../../../workers/notes-messages';
import { withRateLimitRetry } from '../../notes/api/rate-limit';
import { runImport, type PlannedNote } from './import-notes';

const noWait = () => Promise.resolve();
const planned = (n: number): PlannedNote[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    plain: { title: `T${i}`, content: '', tags: [] },
  }));
const sealedFor = (id: string): SealedNoteFields => ({
  id,
  title: `t-${id}`,
  content: 'c',
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

describe('runImport', () => {
  it('creates every note with progress, a few at a time', async () => {
    const progress: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const outcome = await runImport(planned(10), {
      encrypt: async (id) => sealedFor(id),
      create: async (s) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight--;
        return dto(s);
      },
      onProgress: (p) => progress.push(p.done),
      concurrency: 3,
    });
    expect(outcome).toEqual({ created: 10, failed: 0, firstError: null });
    expect(progress).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(maxInFlight).toBe(3);
  });

  it('rides out the rate limit (429) with the same request, and re-ids a note whose id is taken (409)', async () => {
    const [limitedNote, takenNote] = planned(2);
    const calls: string[] = [];
    let limited = 2;
    const onWait = vi.fn();
    const outcome = await runImport([limitedNote!, takenNote!], {
      encrypt: async (id) => sealedFor(id),
      create: async (s) => {
        calls.push(s.id);
        if (s.id === limitedNote!.id && limited-- > 0)
          throw new ApiError(429, 'Too many requests', { retryAfter: 1 });
        if (s.id === takenNote!.id) throw new ApiError(409, 'taken');
        return dto(s);
      },
      onWait,
      sleep: noWait,
      concurrency: 1,
    });
    expect(outcome.created).toBe(2);
    expect(onWait).toHaveBeenCalledTimes(2);
    // The rate-limited note was sent three times with its own id; the taken one once, then under a new id.
    expect(calls.filter((c) => c === limitedNote!.id)).toHaveLength(3);
    expect(calls.filter((c) => c === takenNote!.id)).toHaveLength(1);
    expect(calls).toHaveLength(5);
    expect(calls[4]).not.toBe(takenNote!.id);
  });

  it('counts failures without stopping the others', async () => {
    const outcome = await runImport(planned(4), {
      encrypt: async (id) => sealedFor(id),
      create: async (s) => {
        if (s.id.endsWith('2')) throw new ApiError(413, 'Note is too large: at most 1 MiB encrypted');
        return dto(s);
      },
      sleep: noWait,
    });
    expect(outcome).toEqual({
      created: 3,
      failed: 1,
      firstError: 'Note is too large: at most 1 MiB encrypted',
    });
  });
});
