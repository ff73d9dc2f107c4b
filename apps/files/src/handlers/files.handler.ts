import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  FILES_PATTERNS,
  type CloudinaryUploadUrlResponse,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type FileCountsResponse,
  type FileEncryptionMetadata,
  type FileListResponse,
  type FileResponse,
  type PreviewResponse,
  type StorageTypesResponse,
  type ThumbnailResponse,
} from '@vault/contracts';
import { CallerService, readRpcBody } from '@vault/server-kit';
import { FilesService } from '../services/files.service';

/**
 * One-liners per FILES_PATTERNS entry: the caller (a live session of the user the context
 * names), the body validated again with the contract schema, then the service.
 */
@Controller()
export class FilesHandler {
  constructor(
    private readonly caller: CallerService,
    private readonly files: FilesService,
  ) {}

  @MessagePattern(FILES_PATTERNS.storageTypes)
  async storageTypes(@Payload() payload: unknown): Promise<StorageTypesResponse> {
    await this.caller.of(payload);
    return this.files.storageTypes();
  }

  @MessagePattern(FILES_PATTERNS.createUpload)
  async createUpload(@Payload() payload: unknown): Promise<CreateUploadResponse> {
    const auth = await this.caller.of(payload);
    return this.files.createUpload(auth, readRpcBody(FILES_PATTERNS.createUpload, payload));
  }

  @MessagePattern(FILES_PATTERNS.createCloudinaryUpload)
  async createCloudinaryUpload(@Payload() payload: unknown): Promise<CloudinaryUploadUrlResponse> {
    const auth = await this.caller.of(payload);
    return this.files.createCloudinaryUpload(
      auth,
      readRpcBody(FILES_PATTERNS.createCloudinaryUpload, payload),
    );
  }

  @MessagePattern(FILES_PATTERNS.completeUpload)
  async completeUpload(@Payload() payload: unknown): Promise<FileResponse> {
    const auth = await this.caller.of(payload);
    const body = readRpcBody(FILES_PATTERNS.completeUpload, payload);
    return this.files.completeUpload(auth, body.fileId, body.plaintextSha256);
  }

  @MessagePattern(FILES_PATTERNS.list)
  async list(@Payload() payload: unknown): Promise<FileListResponse> {
    return this.files.list(await this.caller.of(payload));
  }

  @MessagePattern(FILES_PATTERNS.listDeleted)
  async listDeleted(@Payload() payload: unknown): Promise<FileListResponse> {
    return this.files.listDeleted(await this.caller.of(payload));
  }

  @MessagePattern(FILES_PATTERNS.remove)
  async remove(@Payload() payload: unknown): Promise<null> {
    const auth = await this.caller.of(payload);
    await this.files.remove(auth, readRpcBody(FILES_PATTERNS.remove, payload).id);
    return null;
  }

  @MessagePattern(FILES_PATTERNS.restore)
  async restore(@Payload() payload: unknown): Promise<FileResponse> {
    const auth = await this.caller.of(payload);
    return this.files.restore(auth, readRpcBody(FILES_PATTERNS.restore, payload).id);
  }

  @MessagePattern(FILES_PATTERNS.purge)
  async purge(@Payload() payload: unknown): Promise<null> {
    const auth = await this.caller.of(payload);
    await this.files.purge(auth, readRpcBody(FILES_PATTERNS.purge, payload).id);
    return null;
  }

  @MessagePattern(FILES_PATTERNS.rewrapKey)
  async rewrapKey(@Payload() payload: unknown): Promise<null> {
    const auth = await this.caller.of(payload);
    await this.files.rewrapKey(auth, readRpcBody(FILES_PATTERNS.rewrapKey, payload));
    return null;
  }

  @MessagePattern(FILES_PATTERNS.emptyTrash)
  async emptyTrash(@Payload() payload: unknown): Promise<{ deleted: number }> {
    return this.files.emptyTrash(await this.caller.of(payload));
  }

  @MessagePattern(FILES_PATTERNS.counts)
  async counts(@Payload() payload: unknown): Promise<FileCountsResponse> {
    return this.files.counts(await this.caller.of(payload));
  }

  /** Download and preview URLs: the gateway has re-checked the caller's authKey with auth first. */
  @MessagePattern(FILES_PATTERNS.downloadUrl)
  async downloadUrl(@Payload() payload: unknown): Promise<DownloadUrlResponse | PreviewResponse> {
    const auth = await this.caller.of(payload);
    const body = readRpcBody(FILES_PATTERNS.downloadUrl, payload);
    return body.purpose === 'preview'
      ? this.files.previewUrl(auth, body.id)
      : this.files.downloadUrl(auth, body.id);
  }

  @MessagePattern(FILES_PATTERNS.metadata)
  async metadata(@Payload() payload: unknown): Promise<FileEncryptionMetadata> {
    const auth = await this.caller.of(payload);
    return this.files.metadata(auth, readRpcBody(FILES_PATTERNS.metadata, payload).id);
  }

  @MessagePattern(FILES_PATTERNS.thumbnail)
  async thumbnail(@Payload() payload: unknown): Promise<ThumbnailResponse> {
    const auth = await this.caller.of(payload);
    return this.files.thumbnail(auth, readRpcBody(FILES_PATTERNS.thumbnail, payload).id);
  }

  /** Account deletion (auth calls it with the user's own context, after re-checking the password). */
  @MessagePattern(FILES_PATTERNS.purgeOwner)
  async purgeOwner(@Payload() payload: unknown): Promise<{ deleted: number }> {
    const auth = await this.caller.of(payload);
    return this.files.purgeOwner(auth.userId);
  }
}
