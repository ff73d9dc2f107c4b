import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import {
  cloudinaryUploadUrlResponseSchema,
  completeUploadBodySchema,
  createUploadBodySchema,
  createUploadResponseSchema,
  downloadUrlResponseSchema,
  emptyTrashResponseSchema,
  ErrorCode as E,
  fileAccessBodySchema,
  fileCountsResponseSchema,
  fileEncryptionMetadataSchema,
  fileIdParamSchema,
  fileListResponseSchema,
  fileMetadataSchema,
  fileResponseSchema,
  FILE_MAX_BYTES,
  FILE_URL_TTL_SECONDS,
  previewResponseSchema,
  rewrapFileKeyBodySchema,
  thumbnailResponseSchema,
  storageTypesResponseSchema,
  type CloudinaryUploadUrlResponse,
  type CompleteUploadBody,
  type CreateUploadBody,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type EmptyTrashResponse,
  type FileAccessBody,
  type FileCountsResponse,
  type FileEncryptionMetadata,
  type FileIdParam,
  type FileListResponse,
  type FileMetadataBody,
  type FileResponse,
  type FileUrlPurpose,
  type FileUrlReply,
  type PreviewResponse,
  type RewrapFileKeyBody,
  type RpcContext,
  type StorageTypesResponse,
  type ThumbnailResponse,
} from '@vault/contracts';
import type { FastifyRequest } from 'fastify';
import { Route, type RouteOptions } from '../../openapi/api-doc';
import { CLOUDINARY_UPLOAD_FORM } from '../../openapi/components';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import {
  CloudinaryMultipartUpload,
  cloudinaryUploadResponseSchema,
  MULTIPART_MAX_BYTES,
  type CloudinaryUploadResponse,
} from './cloudinary-multipart.upload';
import { thumbnailQuerySchema, type ThumbnailQuery } from './thumbnail-query.schema';

const ADDITION = 'An addition to the original contract (docs/api.md)';
/** What recording a pending upload may fail with. */
const UPLOAD_ERRORS = [E.STORAGE_NOT_CONFIGURED, E.CONFLICT];
/**
 * The password-checked routes (signedUrl), on the `auth` limit: a wrong authKey, a file held back
 * by its scan, a locked account.
 */
const PASSWORD_CHECKED: Pick<RouteOptions, 'status' | 'limit' | 'errors'> = {
  status: 200,
  limit: 'auth',
  errors: [E.INVALID_PASSWORD, E.FILE_INFECTED, E.ACCOUNT_LOCKED],
};

/**
 * /api/files (docs/api.md "Files"; additions to the original contract: `GET /api/files/counts`,
 * `DELETE /api/files/trash` and `PUT /api/files/{id}/key`). Protected by the global JWT guard;
 * each handler only translates.
 * The signed blob route (`/api/files/blob/*`, public) is FilesBlobController.
 */
@Controller('files')
export class FilesController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly cloudinary: CloudinaryMultipartUpload,
  ) {}

  @Route('get', 'storage-types', {
    summary:
      'Every storage kind the product supports (`kinds`: local disk, S3/R2/MinIO, Cloudinary), each with ' +
      'whether this deployment has configured it and the files service settings that turn it on ' +
      '(`enableWith`, environment variable names); `types` lists the configured kinds only (the ' +
      "answer's first shape); `default` is the configured kind the upload dialog preselects. An " +
      'upload to a kind that is not configured is refused (STORAGE_NOT_CONFIGURED)',
    success: [
      {
        description: 'Every storage kind, whether configured, and the default',
        schema: storageTypesResponseSchema,
      },
    ],
  })
  listStorageTypes(@Ctx() ctx: RpcContext): Promise<StorageTypesResponse> {
    return this.rpc.call('files.storage-types', ctx, undefined);
  }

  /** Records a pending upload and signs where its bytes go (201: the file's record is created). */
  @Route('post', 'upload-url', {
    status: 201,
    summary:
      'Record a pending upload of a file sealed on the client and sign where its bytes go: PUT them ' +
      `there as application/octet-stream within ${FILE_URL_TTL_SECONDS / 60} minutes (a relative ` +
      '/api/files/blob/... URL on this origin, or an S3 presigned URL), then POST /api/files/upload-complete. ' +
      `The plaintext size is at most ${FILE_MAX_BYTES} bytes. The same request again (same fileId, same body) ` +
      'signs a new URL for the same pending upload',
    success: [
      {
        description:
          'Pending upload recorded, URL signed. partSize (local storage only) means the bytes may ' +
          'also go in ordered parts of at most partSize bytes (see PUT /api/files/blob/{objectKey})',
        schema: createUploadResponseSchema,
      },
    ],
    errors: UPLOAD_ERRORS,
  })
  createUpload(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(createUploadBodySchema)) body: CreateUploadBody,
  ): Promise<CreateUploadResponse> {
    return this.rpc.call('files.create-upload', ctx, body);
  }

  @Route('post', 'upload-complete', {
    status: 200,
    summary:
      'Check the stored object against encryptedSize, make the file visible and queue its scan ' +
      '(repeating it answers the same file)',
    success: [{ description: 'The uploaded file', schema: fileResponseSchema }],
    errors: [E.UPLOAD_SIZE_MISMATCH, E.NOT_FOUND],
  })
  completeUpload(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(completeUploadBodySchema)) body: CompleteUploadBody,
  ): Promise<FileResponse> {
    return this.rpc.call('files.complete-upload', ctx, body);
  }

  /** Signed parameters for the browser's direct upload to Cloudinary (201, like upload-url). */
  @Route('post', 'cloudinary/upload-url', {
    status: 201,
    summary:
      'Record a pending Cloudinary upload and sign the parameters of a direct upload: POST ' +
      'multipart/form-data to uploadUrl with every entry of fields and the encrypted bytes as file',
    success: [
      {
        description: 'Pending upload recorded, parameters signed',
        schema: cloudinaryUploadUrlResponseSchema,
      },
    ],
    errors: UPLOAD_ERRORS,
  })
  createCloudinaryUpload(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(fileMetadataSchema)) body: FileMetadataBody,
  ): Promise<CloudinaryUploadUrlResponse> {
    return this.rpc.call('files.create-cloudinary-upload', ctx, body);
  }

  /** Multipart: the metadata fields, then `file`; streamed, never buffered. */
  @Route('post', 'cloudinary/upload', {
    status: 201,
    summary:
      'Upload through the gateway to Cloudinary in one request: multipart/form-data with the metadata ' +
      'fields as text (numbers as decimal text) first and the encrypted bytes as the part "file" last ' +
      '(a file before the fields answers 400 "Send the metadata fields before the file"). The file is ' +
      `streamed to storage, never held; the whole body may be at most ${MULTIPART_MAX_BYTES} bytes`,
    body: CLOUDINARY_UPLOAD_FORM,
    success: [{ description: 'Stored and completed', schema: cloudinaryUploadResponseSchema }],
    errors: [E.STORAGE_NOT_CONFIGURED, E.UPLOAD_SIZE_MISMATCH, E.CONFLICT],
  })
  uploadToCloudinary(
    @Ctx() ctx: RpcContext,
    @Req() request: FastifyRequest,
  ): Promise<CloudinaryUploadResponse> {
    return this.cloudinary.upload(ctx, request.raw);
  }

  @Route('get', undefined, {
    summary: 'Active files (sealed metadata), most recently uploaded first',
    success: [{ description: 'Files', schema: fileListResponseSchema }],
  })
  listFiles(@Ctx() ctx: RpcContext): Promise<FileListResponse> {
    return this.rpc.call('files.list', ctx, undefined);
  }

  @Route('get', 'deleted', {
    summary: 'The files trash',
    success: [{ description: 'Deleted files', schema: fileListResponseSchema }],
  })
  listDeletedFiles(@Ctx() ctx: RpcContext): Promise<FileListResponse> {
    return this.rpc.call('files.list-deleted', ctx, undefined);
  }

  @Route('get', 'counts', {
    summary: `How many files are active and in the trash, and their stored bytes (sidebar). ${ADDITION}`,
    success: [{ description: 'Counts', schema: fileCountsResponseSchema }],
  })
  countFiles(@Ctx() ctx: RpcContext): Promise<FileCountsResponse> {
    return this.rpc.call('files.counts', ctx, undefined);
  }

  @Route('delete', 'trash', {
    status: 200,
    summary: `Permanently delete every file in the trash, stored objects included. ${ADDITION}`,
    success: [{ description: 'How many files were deleted', schema: emptyTrashResponseSchema }],
  })
  emptyFilesTrash(@Ctx() ctx: RpcContext): Promise<EmptyTrashResponse> {
    return this.rpc.call('files.empty-trash', ctx, undefined);
  }

  @Route('delete', ':id', {
    status: 204,
    summary: 'Soft delete: move the file to the trash',
    success: [{ description: 'In the trash' }],
  })
  async deleteFile(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
  ): Promise<void> {
    await this.rpc.call('files.delete', ctx, params);
  }

  @Route('post', ':id/restore', {
    status: 200,
    summary: 'Take a file out of the trash',
    success: [{ description: 'Restored', schema: fileResponseSchema }],
  })
  restoreFile(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
  ): Promise<FileResponse> {
    return this.rpc.call('files.restore', ctx, params);
  }

  /** Legacy-key re-wrap: only wrappedKey changes, in the trash too; a pending upload answers 404. */
  @Route('put', ':id/key', {
    status: 204,
    summary:
      'Replace only the wrapped key of a file, active or in the trash (the re-wrap under the current vault ' +
      `key after an access reset); a pending upload answers 404. ${ADDITION}`,
    success: [{ description: 'Re-wrapped' }],
  })
  async rewrapFileKey(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
    @Body(zodPipe(rewrapFileKeyBodySchema)) body: RewrapFileKeyBody,
  ): Promise<void> {
    await this.rpc.call('files.rewrap-key', ctx, { id: params.id, ...body });
  }

  @Route('delete', ':id/permanent', {
    status: 204,
    summary: 'Permanently delete a file of the trash and its stored object',
    success: [{ description: 'Deleted for good' }],
  })
  async purgeFile(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
  ): Promise<void> {
    await this.rpc.call('files.delete-permanent', ctx, params);
  }

  @Route('get', ':id/metadata', {
    summary: 'The encryption metadata of a file (sealed name and type, sizes, iv, chunk size, wrapped key)',
    success: [{ description: 'Encryption metadata', schema: fileEncryptionMetadataSchema }],
  })
  fileMetadata(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
  ): Promise<FileEncryptionMetadata> {
    return this.rpc.call('files.metadata', ctx, params);
  }

  /** The sealed thumbnail (404 when the file has none); the size query is checked, then ignored. */
  @Route('get', ':id/optimized', {
    summary:
      'The sealed thumbnail made on the device at upload (404 when the file has none). The server cannot ' +
      'resize an encrypted picture: width, height, quality and format are checked, then ignored',
    success: [{ description: 'Sealed thumbnail', schema: thumbnailResponseSchema }],
  })
  fileThumbnail(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
    @Query(zodPipe(thumbnailQuerySchema)) _query: ThumbnailQuery,
  ): Promise<ThumbnailResponse> {
    return this.rpc.call('files.thumbnail', ctx, params);
  }

  @Route('post', ':id/download-url', {
    ...PASSWORD_CHECKED,
    summary:
      'Re-check the password (authKey; 401 "Invalid password" when wrong, and no URL is signed), then sign ' +
      `a GET of the stored (encrypted) object valid for ${FILE_URL_TTL_SECONDS / 60} minutes. Counts against ` +
      'the auth rate limit',
    success: [{ description: 'Signed download URL', schema: downloadUrlResponseSchema }],
  })
  fileDownloadUrl(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
    @Body(zodPipe(fileAccessBodySchema)) body: FileAccessBody,
  ): Promise<DownloadUrlResponse> {
    return this.signedUrl(ctx, params, body, 'download');
  }

  @Route('post', ':id/preview', {
    ...PASSWORD_CHECKED,
    summary:
      'As download-url, answered as a preview: content is the signed URL of the stored object, decrypted ' +
      'for preview on the device',
    success: [{ description: 'Signed preview URL', schema: previewResponseSchema }],
  })
  filePreview(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
    @Body(zodPipe(fileAccessBodySchema)) body: FileAccessBody,
  ): Promise<PreviewResponse> {
    return this.signedUrl(ctx, params, body, 'preview');
  }

  /** The password is checked by auth first (401 'Invalid password'); only then is a URL signed. */
  private async signedUrl<P extends FileUrlPurpose>(
    ctx: RpcContext,
    { id }: FileIdParam,
    body: FileAccessBody,
    purpose: P,
  ): Promise<FileUrlReply<P>> {
    await this.rpc.call('auth.verify-auth-key', ctx, body);
    // files.download-url answers by purpose (FileUrlReply): the signed GET, or the preview.
    return (await this.rpc.call('files.download-url', ctx, { id, purpose })) as FileUrlReply<P>;
  }
}
