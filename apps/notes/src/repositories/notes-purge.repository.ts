import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NoteEntity } from '../entities/note.entity';

/** Account deletion: every note of a user, active or in the trash. */
@Injectable()
export class NotesPurgeRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** How many notes were deleted; 0 on a replay (idempotent). */
  async deleteAllOwned(ownerId: string): Promise<number> {
    const result = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(NoteEntity)
      .where('owner_id = :ownerId', { ownerId })
      .execute();
    return result.affected ?? 0;
  }
}
