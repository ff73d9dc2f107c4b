import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * Every owner's note counts at once, from `notes.note_counts` (kept by the triggers of migration
 * NoteCounts1795800000000): a sum over one row per owner, not a count over every note.
 */
@Injectable()
export class NoteCountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async everyone(): Promise<{ active: number; deleted: number }> {
    const [row] = (await this.dataSource.query(
      `SELECT coalesce(sum("notes"), 0)::bigint AS active, coalesce(sum("deleted_notes"), 0)::bigint AS deleted
       FROM "notes"."note_counts"`,
    )) as { active: string; deleted: string }[];
    return { active: Number(row?.active ?? 0), deleted: Number(row?.deleted ?? 0) };
  }
}
