import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A row of `notes.notes`. Every text field but the ids is ciphertext made on the client
 * (docs/crypto-protocol.md "Notes"); the server never sees a title, a content or a tag. Never
 * leaves the service: map it with `toNoteDto`.
 *
 * Timestamps are written by the service with millisecond precision, the precision of the
 * ISO strings in answers (an import's dates are kept to the millisecond too).
 */
@Entity({ schema: 'notes', name: 'notes' })
export class NoteEntity {
  /** Made by the client (UUID v4) so it can be bound into the ciphertexts' AAD. */
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'owner_id' })
  ownerId!: string;

  /** Sealed title `hex(ct||tag):hex(iv)`. */
  @Column('text')
  title!: string;

  /** Sealed content. */
  @Column('text')
  content!: string;

  /** The protocol's one-item list of sealed tags (or empty). */
  @Column('jsonb')
  tags!: string[];

  /** The note's key sealed under the vault key. */
  @Column('text', { name: 'wrapped_dek' })
  wrappedDek!: string;

  @Column('boolean', { name: 'is_encrypted', default: true })
  isEncrypted!: boolean;

  @Column('boolean', { name: 'is_deleted', default: false })
  isDeleted!: boolean;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;

  @Column('timestamptz', { name: 'deleted_at', nullable: true })
  deletedAt!: Date | null;

  /**
   * Where the note goes among notes of the same `updatedAt` (ascending): microseconds since the
   * epoch when it was stored, plus its place in its batch, so an import keeps its file's order.
   * 0 for notes stored before the column existed (they keep their order by id). A bigint, so a
   * decimal string here; never in answers.
   */
  @Column('bigint', { name: 'stored_order' })
  storedOrder!: string;

  /** SHA-256 of the create request's sealed fields (and dates): tells an idempotent retry from a clash. */
  @Column('text', { name: 'body_hash' })
  bodyHash!: string;
}
