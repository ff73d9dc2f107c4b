import { Injectable } from '@nestjs/common';
import { FilesRepository } from '../repositories/files.repository';
import { StorageRepository } from '../repositories/storage.repository';

/**
 * Account deletion, files' part: every file row of the user (active, in the trash or a pending
 * upload) and its stored object. Object first, then row (as everywhere: the other way round a
 * failure would orphan the object); a failure throws so the job retries, and what was already
 * deleted is simply not found again.
 */
@Injectable()
export class AccountPurgeService {
  constructor(
    private readonly files: FilesRepository,
    private readonly storage: StorageRepository,
  ) {}

  async purgeOwner(ownerId: string): Promise<number> {
    const rows = await this.files.listAllOwned(ownerId, false);
    let deleted = 0;
    for (const row of rows) {
      // A storage type no longer configured cannot be reached: the row still goes.
      if (this.storage.has(row.storageType)) await this.storage.discard(row);
      if (await this.files.deleteRow(ownerId, row.id)) deleted += 1;
    }
    return deleted;
  }
}
