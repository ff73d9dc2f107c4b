import { Inject, Injectable } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import {
  FILES_PATTERNS,
  type CloudinaryUploadUrlResponse,
  type CompleteUploadBody,
  type CreateUploadBody,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type EmptyTrashResponse,
  type FileCountsResponse,
  type FileEncryptionMetadata,
  type FileIdParam,
  type FileListResponse,
  type FileMetadataBody,
  type FileResponse,
  type HealthReply,
  type PreviewResponse,
  type RewrapFileKeyRequest,
  type RpcContext,
  type StorageTypesResponse,
  type ThumbnailResponse,
} from '@vault/contracts';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config';
import { RpcServiceClient } from './rpc-service.client';

export const FILES_RPC = Symbol('FILES_RPC');

/** The body of `files.download-url`: which file, and whether the URL is for a download or a preview. */
export interface FileUrlRequest {
  id: string;
  purpose: 'download' | 'preview';
}

/**
 * The files service's message patterns, typed (see RpcServiceClient). Only metadata travels
 * here: the bytes go by signed URL to storage, or through the files service's HTTP blob route
 * (FilesBlobProxy), never over RPC.
 */
@Injectable()
export class FilesRpcClient extends RpcServiceClient {
  constructor(@Inject(FILES_RPC) client: ClientProxy, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    super(client, config);
  }

  storageTypes(ctx: RpcContext): Promise<StorageTypesResponse> {
    return this.call(FILES_PATTERNS.storageTypes, ctx, undefined);
  }
  createUpload(ctx: RpcContext, body: CreateUploadBody): Promise<CreateUploadResponse> {
    return this.call(FILES_PATTERNS.createUpload, ctx, body);
  }
  createCloudinaryUpload(ctx: RpcContext, body: FileMetadataBody): Promise<CloudinaryUploadUrlResponse> {
    return this.call(FILES_PATTERNS.createCloudinaryUpload, ctx, body);
  }
  completeUpload(ctx: RpcContext, body: CompleteUploadBody): Promise<FileResponse> {
    return this.call(FILES_PATTERNS.completeUpload, ctx, body);
  }
  list(ctx: RpcContext): Promise<FileListResponse> {
    return this.call(FILES_PATTERNS.list, ctx, undefined);
  }
  listDeleted(ctx: RpcContext): Promise<FileListResponse> {
    return this.call(FILES_PATTERNS.listDeleted, ctx, undefined);
  }
  counts(ctx: RpcContext): Promise<FileCountsResponse> {
    return this.call(FILES_PATTERNS.counts, ctx, undefined);
  }
  rewrapKey(ctx: RpcContext, body: RewrapFileKeyRequest): Promise<null> {
    return this.call(FILES_PATTERNS.rewrapKey, ctx, body);
  }
  remove(ctx: RpcContext, body: FileIdParam): Promise<null> {
    return this.call(FILES_PATTERNS.remove, ctx, body);
  }
  restore(ctx: RpcContext, body: FileIdParam): Promise<FileResponse> {
    return this.call(FILES_PATTERNS.restore, ctx, body);
  }
  purge(ctx: RpcContext, body: FileIdParam): Promise<null> {
    return this.call(FILES_PATTERNS.purge, ctx, body);
  }
  emptyTrash(ctx: RpcContext): Promise<EmptyTrashResponse> {
    return this.call(FILES_PATTERNS.emptyTrash, ctx, undefined);
  }
  /** A 5-minute signed GET of the file's object; call only after auth re-checked the authKey. */
  downloadUrl(ctx: RpcContext, id: string): Promise<DownloadUrlResponse> {
    return this.call<DownloadUrlResponse, FileUrlRequest>(FILES_PATTERNS.downloadUrl, ctx, {
      id,
      purpose: 'download',
    });
  }
  /** The same signed GET, answered as the preview (`{content, expiresAt}`); after the authKey check. */
  previewUrl(ctx: RpcContext, id: string): Promise<PreviewResponse> {
    return this.call<PreviewResponse, FileUrlRequest>(FILES_PATTERNS.downloadUrl, ctx, {
      id,
      purpose: 'preview',
    });
  }
  metadata(ctx: RpcContext, body: FileIdParam): Promise<FileEncryptionMetadata> {
    return this.call(FILES_PATTERNS.metadata, ctx, body);
  }
  thumbnail(ctx: RpcContext, body: FileIdParam): Promise<ThumbnailResponse> {
    return this.call(FILES_PATTERNS.thumbnail, ctx, body);
  }
  health(ctx: RpcContext, timeoutMs: number): Promise<HealthReply> {
    return this.call(FILES_PATTERNS.health, ctx, undefined, timeoutMs);
  }
}
