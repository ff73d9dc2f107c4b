import { noteDtoSchema } from '@vault/contracts';
import { NoteEntity } from '../entities/note.entity';
import { toNoteDto } from './note.mapper';

const sealed = (c: string) => `${c.repeat(40)}:${'0'.repeat(24)}`;

function entity(overrides: Partial<NoteEntity> = {}): NoteEntity {
  return Object.assign(new NoteEntity(), {
    id: '3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7b',
    ownerId: '0b1e6c1a-3c2d-4e5f-8a9b-0c1d2e3f4a5b',
    title: sealed('a'),
    content: sealed('b'),
    tags: [sealed('c')],
    wrappedDek: `${'1'.repeat(96)}:${'2'.repeat(24)}`,
    isEncrypted: true,
    isDeleted: false,
    createdAt: new Date(Date.UTC(2026, 0, 1, 10)),
    updatedAt: new Date(Date.UTC(2026, 0, 2, 11, 0, 0, 123)),
    deletedAt: null,
    bodyHash: 'f'.repeat(64),
    ...overrides,
  });
}

describe('note mapper', () => {
  it('maps a row to the contract’s note with ISO dates, under the contract’s field names', () => {
    const note = entity();
    expect(toNoteDto(note)).toEqual({
      id: note.id,
      title: note.title,
      content: note.content,
      tags: note.tags,
      wrappedDEK: note.wrappedDek,
      isEncrypted: true,
      isDeleted: false,
      createdAt: '2026-01-01T10:00:00.000Z',
      updatedAt: '2026-01-02T11:00:00.123Z',
      deletedAt: null,
    });
  });

  it('carries the deletion time of a note in the trash', () => {
    const dto = toNoteDto(entity({ isDeleted: true, deletedAt: new Date(Date.UTC(2026, 1, 3)) }));
    expect(dto).toMatchObject({ isDeleted: true, deletedAt: '2026-02-03T00:00:00.000Z' });
  });

  it('never exposes the owner or the body hash, and satisfies the contract schema', () => {
    const dto = toNoteDto(entity());
    expect(Object.keys(dto)).not.toEqual(expect.arrayContaining(['ownerId']));
    expect(JSON.stringify(dto)).not.toContain('0b1e6c1a');
    expect(JSON.stringify(dto)).not.toContain('f'.repeat(64));
    expect(noteDtoSchema.strict().safeParse(dto).success).toBe(true);
  });

  it('copies the tags list instead of sharing it', () => {
    const note = entity();
    const dto = toNoteDto(note);
    dto.tags.push('x');
    expect(note.tags).toHaveLength(1);
  });
});
