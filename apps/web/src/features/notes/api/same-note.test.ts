import type { NoteDto } from '@vault/contracts';
import { describe, expect, it } from 'vitest';
import { NOTE_ANSWER_MISMATCH, requireSameNote } from './same-note';

const sealed = (c: string) => `${c.repeat(40)}:${'0'.repeat(24)}`;
const sent = {
  id: '0b6f8f8e-5d1a-4f6e-9a51-3c2d1e0f9a8b',
  title: sealed('a'),
  content: sealed('b'),
  tags: [sealed('c')],
  wrappedDEK: sealed('d'),
};
const answer: NoteDto = {
  ...sent,
  tags: [...sent.tags],
  isEncrypted: true,
  isDeleted: false,
  createdAt: '2026-03-01T00:00:00.000Z',
  updatedAt: '2026-03-01T00:00:00.000Z',
  deletedAt: null,
};

describe(requireSameNote.name, () => {
  it('passes the answer on when it is the note sent', () => {
    expect(requireSameNote(sent, answer)).toBe(answer);
  });

  it.each([
    ['another id', { id: '7d3c8a52-9f1e-4b6a-8c2d-5e4f3a2b1c0d' }],
    ['another title', { title: sealed('e') }],
    ['another content', { content: sealed('e') }],
    ['other tags', { tags: [sealed('e')] }],
    ['a tag more', { tags: [sealed('c'), sealed('c')] }],
    ['another wrapped key', { wrappedDEK: sealed('e') }],
  ])('refuses an answer with %s (a 502)', (_, change) => {
    expect(() => requireSameNote(sent, { ...answer, ...change })).toThrow(NOTE_ANSWER_MISMATCH);
    expect(() => requireSameNote(sent, { ...answer, ...change })).toThrow(
      expect.objectContaining({ status: 502 }),
    );
  });
});
