import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req } from '@nestjs/common';
import {
  completeUploadBodySchema,
  createUploadBodySchema,
  fileAccessBodySchema,
  fileIdParamSchema,
  fileMetadataSchema,
  rewrapFileKeyBodySchema,
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
  type PreviewResponse,
  type RewrapFileKeyBody,
  type RpcContext,
  type StorageTypesResponse,
  type ThumbnailResponse,
} from '@vault/contracts';
import type { FastifyRequest } from 'fastify';
import { Ctx } from '../../proxy/rpc-context.decorator';
import { RpcClient } from '../../proxy/rpc.client';
import { RateLimit } from '../../security/rate-limit.decorator';
import { zodPipe } from '../../validation/zod.pipe';
import { CloudinaryMultipartUpload, type CloudinaryUploadResponse } from './cloudinary-multipart.upload';
import { thumbnailQuerySchema, type ThumbnailQuery } from './thumbnail-query.schema';

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

  @Get('storage-types')
  storageTypes(@Ctx() ctx: RpcContext): Promise<StorageTypesResponse> {
    return this.rpc.call('files.storage-types', ctx, undefined);
  }

  /** Records a pending upload and signs where its bytes go (201: the file's record is created). */
  @Post('upload-url')
  @HttpCode(201)
  createUpload(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(createUploadBodySchema)) body: CreateUploadBody,
  ): Promise<CreateUploadResponse> {
    return this.rpc.call('files.create-upload', ctx, body);
  }

  @Post('upload-complete')
  @HttpCode(200)
  completeUpload(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(completeUploadBodySchema)) body: CompleteUploadBody,
  ): Promise<FileResponse> {
    return this.rpc.call('files.complete-upload', ctx, body);
  }

  /** Signed parameters for the browser's direct upload to Cloudinary (201, like upload-url). */
  @Post('cloudinary/upload-url')
  @HttpCode(201)
  createCloudinaryUpload(
    @Ctx() ctx: RpcContext,
    @Body(zodPipe(fileMetadataSchema)) body: FileMetadataBody,
  ): Promise<CloudinaryUploadUrlResponse> {
    return this.rpc.call('files.create-cloudinary-upload', ctx, body);
  }

  /** Multipart: the metadata fields, then `file`; streamed, never buffered. */
  @Post('cloudinary/upload')
  @HttpCode(201)
  uploadToCloudinary(
    @Ctx() ctx: RpcContext,
    @Req() request: FastifyRequest,
  ): Promise<CloudinaryUploadResponse> {
    return this.cloudinary.upload(ctx, request.raw);
  }

  @Get()
  list(@Ctx() ctx: RpcContext): Promise<FileListResponse> {
    return this.rpc.call('files.list', ctx, undefined);
  }

  @Get('deleted')
  listDeleted(@Ctx() ctx: RpcContext): Promise<FileListResponse> {
    return this.rpc.call('files.list-deleted', ctx, undefined);
  }

  @Get('counts')
  counts(@Ctx() ctx: RpcContext): Promise<FileCountsResponse> {
    return this.rpc.call('files.counts', ctx, undefined);
  }

  @Delete('trash')
  @HttpCode(200)
  emptyTrash(@Ctx() ctx: RpcContext): Promise<EmptyTrashResponse> {
    return this.rpc.call('files.empty-trash', ctx, undefined);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
  ): Promise<void> {
    await this.rpc.call('files.delete', ctx, params);
  }

  @Post(':id/restore')
  @HttpCode(200)
  restore(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
  ): Promise<FileResponse> {
    return this.rpc.call('files.restore', ctx, params);
  }

  /** Legacy-key re-wrap: only wrappedKey changes, in the trash too; a pending upload answers 404. */
  @Put(':id/key')
  @HttpCode(204)
  async rewrapKey(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
    @Body(zodPipe(rewrapFileKeyBodySchema)) body: RewrapFileKeyBody,
  ): Promise<void> {
    await this.rpc.call('files.rewrap-key', ctx, { id: params.id, ...body });
  }

  @Delete(':id/permanent')
  @HttpCode(204)
  async purge(@Ctx() ctx: RpcContext, @Param(zodPipe(fileIdParamSchema)) params: FileIdParam): Promise<void> {
    await this.rpc.call('files.delete-permanent', ctx, params);
  }

  @Get(':id/metadata')
  metadata(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
  ): Promise<FileEncryptionMetadata> {
    return this.rpc.call('files.metadata', ctx, params);
  }

  /** The sealed thumbnail (404 when the file has none); the size query is checked, then ignored. */
  @Get(':id/optimized')
  thumbnail(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
    @Query(zodPipe(thumbnailQuerySchema)) _query: ThumbnailQuery,
  ): Promise<ThumbnailResponse> {
    return this.rpc.call('files.thumbnail', ctx, params);
  }

  /** The password is checked by auth first (401 'Invalid password'); only then is a URL signed. */
  @Post(':id/download-url')
  @HttpCode(200)
  @RateLimit('auth')
  async downloadUrl(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
    @Body(zodPipe(fileAccessBodySchema)) body: FileAccessBody,
  ): Promise<DownloadUrlResponse> {
    await this.rpc.call('auth.verify-auth-key', ctx, body);
    // files.download-url answers by purpose: the signed GET for 'download', the preview for 'preview'.
    return (await this.rpc.call('files.download-url', ctx, {
      id: params.id,
      purpose: 'download',
    })) as DownloadUrlResponse;
  }

  @Post(':id/preview')
  @HttpCode(200)
  @RateLimit('auth')
  async preview(
    @Ctx() ctx: RpcContext,
    @Param(zodPipe(fileIdParamSchema)) params: FileIdParam,
    @Body(zodPipe(fileAccessBodySchema)) body: FileAccessBody,
  ): Promise<PreviewResponse> {
    await this.rpc.call('auth.verify-auth-key', ctx, body);
    return (await this.rpc.call('files.download-url', ctx, {
      id: params.id,
      purpose: 'preview',
    })) as PreviewResponse;
  }
}
