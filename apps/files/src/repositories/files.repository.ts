import { Injectable } from '@nestjs/common';
import type { VirusScanResult } from '@vault/contracts';
import { DataSource, LessThan, type Repository } from 'typeorm';
import { FileEntity } from '../entities/file.entity';

export type NewFile = Omit<
  FileEntity,
  | 'status'
  | 'isDeleted'
  | 'virusScanned'
  | 'virusScanResult'
  | 'scanDetail'
  | 'uploadedAt'
  | 'deletedAt'
  | 'uploadId'
  | 'uploadedBytes'
>;

/** The columns a scan job is built from (toScanJob): rescans and requeues select only these. */
export const SCAN_JOB_COLUMNS = [
  'f.id',
  'f.ownerId',
  'f.storageType',
  'f.objectKey',
  'f.size',
  'f.encryptedSize',
  'f.chunkSize',
] as const;

/** Queries of `files.files`. Every read and write names the owner, so another user's id finds nothing. */
@Injectable()
export class FilesRepository {
  private readonly files: Repository<FileEntity>;

  constructor(dataSource: DataSource) {
    this.files = dataSource.getRepository(FileEntity);
  }

  /** Inserts a pending file; false when the id exists already (whoever owns it). */
  async insertPending(file: NewFile): Promise<boolean> {
    const result = await this.files
      .createQueryBuilder()
      .insert()
      .values({
        ...file,
        status: 'pending',
        isDeleted: false,
        virusScanned: false,
        virusScanResult: 'pending',
        uploadId: null,
        uploadedBytes: 0,
      })
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as unknown[]).length === 1;
  }

  /** Any row with this id, whoever owns it (to tell an idempotent retry from a clash). */
  findById(id: string): Promise<FileEntity | null> {
    return this.files.findOne({ where: { id } });
  }

  findOwned(ownerId: string, id: string): Promise<FileEntity | null> {
    return this.files.findOne({ where: { id, ownerId } });
  }

  findByObjectKey(objectKey: string): Promise<FileEntity | null> {
    return this.files.findOne({ where: { objectKey } });
  }

  /** pending → active, once (the store's upload has ended): null when it was not pending (any more). */
  async activate(ownerId: string, id: string, at: Date): Promise<FileEntity | null> {
    const result = await this.files
      .createQueryBuilder()
      .update()
      .set({ status: 'active', uploadedAt: at, uploadId: null })
      .where('id = :id AND owner_id = :ownerId AND status = :pending', { id, ownerId, pending: 'pending' })
      .execute();
    return result.affected === 1 ? this.findOwned(ownerId, id) : null;
  }

  listActive(ownerId: string): Promise<FileEntity[]> {
    return this.files.find({
      where: { ownerId, status: 'active', isDeleted: false },
      order: { uploadedAt: 'DESC', id: 'DESC' },
    });
  }

  listDeleted(ownerId: string): Promise<FileEntity[]> {
    return this.files.find({
      where: { ownerId, status: 'active', isDeleted: true },
      order: { deletedAt: 'DESC', id: 'DESC' },
    });
  }

  /** Moves an active file to the trash or back: false when there is no such file on that side. */
  async setDeleted(ownerId: string, id: string, deleted: boolean, at: Date): Promise<boolean> {
    const result = await this.files
      .createQueryBuilder()
      .update()
      .set({ isDeleted: deleted, deletedAt: deleted ? at : null })
      .where('id = :id AND owner_id = :ownerId AND status = :active AND is_deleted = :was', {
        id,
        ownerId,
        active: 'active',
        was: !deleted,
      })
      .execute();
    return result.affected === 1;
  }

  /** Replaces the wrapped key of an active or trashed file (never a pending upload); false when none such. */
  async setWrappedKey(ownerId: string, id: string, wrappedKey: string): Promise<boolean> {
    const result = await this.files
      .createQueryBuilder()
      .update()
      .set({ wrappedKey })
      .where('id = :id AND owner_id = :ownerId AND status = :active', { id, ownerId, active: 'active' })
      .execute();
    return result.affected === 1;
  }

  async deleteRow(ownerId: string, id: string): Promise<boolean> {
    const result = await this.files.delete({ id, ownerId });
    return result.affected === 1;
  }

  /** Stored files (pending uploads left out) and their ciphertext bytes, trash included: one owner's, or everyone's. */
  async counts(ownerId?: string): Promise<{ active: number; deleted: number; bytes: number }> {
    const query = this.files
      .createQueryBuilder('f')
      .select('COUNT(*) FILTER (WHERE NOT f.is_deleted)', 'active')
      .addSelect('COUNT(*) FILTER (WHERE f.is_deleted)', 'deleted')
      .addSelect('COALESCE(SUM(f.encrypted_size), 0)', 'bytes')
      .where('f.status = :active', { active: 'active' });
    if (ownerId !== undefined) query.andWhere('f.owner_id = :ownerId', { ownerId });
    const row = (await query.getRawOne()) as { active: string; deleted: string; bytes: string } | undefined;
    return {
      active: Number(row?.active ?? 0),
      deleted: Number(row?.deleted ?? 0),
      bytes: Number(row?.bytes ?? 0),
    };
  }

  /** Every file of an owner (any state): account deletion and empty trash go through these. */
  listAllOwned(ownerId: string, onlyDeleted: boolean): Promise<FileEntity[]> {
    return this.files.find({ where: onlyDeleted ? { ownerId, isDeleted: true } : { ownerId } });
  }

  /** Uploads begun before `before` and never completed, oldest first. */
  listAbandoned(before: Date, limit: number): Promise<FileEntity[]> {
    return this.files.find({
      where: { status: 'pending', createdAt: LessThan(before) },
      order: { createdAt: 'ASC' },
      take: limit,
    });
  }

  /**
   * Compare-and-set of a pending upload's store-side upload id (S3 multipart id, Cloudinary
   * X-Unique-Upload-Id): only when it is still `expected`, so two concurrent starts cannot both
   * win. A new id starts from byte 0. False when the row moved on (or is no longer pending).
   */
  async swapUploadId(id: string, expected: string | null, next: string | null): Promise<boolean> {
    const query = this.files
      .createQueryBuilder()
      .update()
      .set({ uploadId: next, uploadedBytes: 0 })
      .where('id = :id AND status = :pending', { id, pending: 'pending' });
    if (expected === null) query.andWhere('upload_id IS NULL');
    else query.andWhere('upload_id = :expected', { expected });
    return (await query.execute()).affected === 1;
  }

  /** How far a chunked upload has got, once the store acknowledged a chunk of that same upload. */
  async setUploadedBytes(id: string, uploadId: string, bytes: number): Promise<boolean> {
    const result = await this.files
      .createQueryBuilder()
      .update()
      .set({ uploadedBytes: bytes })
      .where('id = :id AND status = :pending AND upload_id = :uploadId', { id, pending: 'pending', uploadId })
      .execute();
    return result.affected === 1;
  }

  /** Deletes a pending row (cleanup), only if it is still pending. */
  async deletePending(id: string): Promise<boolean> {
    const result = await this.files.delete({ id, status: 'pending' });
    return result.affected === 1;
  }

  /** Stored files whose scan ended in `error`, newest upload first (files_scan_error_idx), except `exceptIds`. */
  listScanErrors(limit: number, exceptIds: readonly string[]): Promise<FileEntity[]> {
    const query = this.scanErrors().orderBy('f.uploaded_at', 'DESC').addOrderBy('f.id').limit(limit);
    if (exceptIds.length > 0) query.andWhere('f.id <> ALL(:exceptIds)', { exceptIds });
    return query.getMany();
  }

  countScanErrors(): Promise<number> {
    return this.scanErrors().getCount();
  }

  /** Which of these stored files' scans ended in `error`. */
  async scanErrorsAmong(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.scanErrors().select('f.id').andWhere('f.id = ANY(:ids)', { ids }).getMany();
    return new Set(rows.map((r) => r.id));
  }

  private scanErrors() {
    return this.files
      .createQueryBuilder('f')
      .where('f.virus_scan_result = :error AND f.status = :active', { error: 'error', active: 'active' });
  }

  /** A stored file (complete, not purged; trashed or not), whoever owns it: the admin's rescans. */
  findStored(id: string): Promise<FileEntity | null> {
    return this.files.findOne({ where: { id, status: 'active' } });
  }

  /** Stored files after `afterId` in id order, with what a scan job needs: rescans walk every file in batches. */
  listStoredAfter(afterId: string | undefined, limit: number): Promise<FileEntity[]> {
    const query = this.files
      .createQueryBuilder('f')
      .select([...SCAN_JOB_COLUMNS])
      .where('f.status = :active', { active: 'active' })
      .orderBy('f.id')
      .limit(limit);
    if (afterId !== undefined) query.andWhere('f.id > :afterId', { afterId });
    return query.getMany();
  }

  /** A failed scan queued again: the verdict is pending until the worker answers. */
  async markScanPending(id: string): Promise<void> {
    await this.files.update(
      { id, status: 'active', virusScanResult: 'error' },
      { virusScanned: false, virusScanResult: 'pending', scanDetail: null },
    );
  }

  async recordScan(id: string, result: VirusScanResult, detail: string): Promise<boolean> {
    const update = await this.files.update(
      { id, status: 'active' },
      { virusScanned: result !== 'error', virusScanResult: result, scanDetail: detail },
    );
    return update.affected === 1;
  }
}
