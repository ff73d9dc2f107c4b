import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  FILE_THUMBNAIL_MAX_CHARS,
  fileMetadataSchema,
  VaultError,
  type FileMetadataBody,
  type RpcContext,
} from '@vault/contracts';
import { z } from 'zod';
import { BLOB_MAX_BYTES, FilesBlobProxy } from '../../proxy/files-blob.proxy';
import { RpcClient } from '../../proxy/rpc.client';
import { zodPipe } from '../../validation/zod.pipe';
import { readMultipartUpload } from './multipart-upload';

/** `POST /api/files/cloudinary/upload` answers `{fileId}` (201). */
export const cloudinaryUploadResponseSchema = z.object({ fileId: z.string() });
export type CloudinaryUploadResponse = z.output<typeof cloudinaryUploadResponseSchema>;

const metadataJson = z.toJSONSchema(fileMetadataSchema, { io: 'input', unrepresentable: 'any' }) as {
  properties: Record<string, { type?: string }>;
  required?: string[];
};

/** The metadata fields of the form, as fileMetadataSchema names them. */
export const METADATA_FIELDS: readonly string[] = Object.keys(metadataJson.properties);
/** The fields that must all come before the file part. */
export const REQUIRED_METADATA_FIELDS: readonly string[] = metadataJson.required ?? [];
/** Fields that the schema wants as numbers; a form carries them as decimal text. */
export const NUMERIC_METADATA_FIELDS: ReadonlySet<string> = new Set(
  Object.entries(metadataJson.properties)
    .filter(([, s]) => s.type === 'integer' || s.type === 'number')
    .map(([name]) => name),
);

/** Room for the text fields of a form (the largest is a sealed thumbnail), beside the file. */
export const MULTIPART_FIELDS_MAX_BYTES = 1024 * 1024;
/** The largest multipart body of an upload: the encrypted file at its largest plus the fields. */
export const MULTIPART_MAX_BYTES = BLOB_MAX_BYTES + MULTIPART_FIELDS_MAX_BYTES;

const metadataPipe = zodPipe(fileMetadataSchema);

/**
 * The text fields of a form as the metadata body: numeric fields turned into numbers when they
 * are plain decimal digits (anything else stays text, so the schema's own message answers),
 * then validated like the JSON routes (first failing rule, `Unknown field: x`).
 */
export function metadataOfFields(fields: Record<string, string>): FileMetadataBody {
  const body = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [
      name,
      NUMERIC_METADATA_FIELDS.has(name) && /^\d{1,16}$/.test(value) ? Number(value) : value,
    ]),
  );
  return metadataPipe.transform(body);
}

/**
 * `POST /api/files/cloudinary/upload`: a multipart form (the metadata as text fields, then the
 * encrypted bytes as `file`) turned into what the browser would otherwise do itself, without
 * ever holding the file: the fields are checked and recorded (`files.create-upload` with
 * storageType `cloudinary`), the file part streams straight to the files service's blob route
 * (which streams it on to Cloudinary), and the upload is completed.
 */
@Injectable()
export class CloudinaryMultipartUpload {
  constructor(
    private readonly rpc: RpcClient,
    private readonly blobs: FilesBlobProxy,
  ) {}

  async upload(ctx: RpcContext, request: IncomingMessage): Promise<CloudinaryUploadResponse> {
    const declared = Number(request.headers['content-length']);
    if (declared > MULTIPART_MAX_BYTES) {
      throw new VaultError(ErrorCode.PAYLOAD_TOO_LARGE, undefined, { maxBytes: MULTIPART_MAX_BYTES });
    }
    const form = await readMultipartUpload(request, {
      requiredFields: REQUIRED_METADATA_FIELDS,
      fileField: 'file',
      maxFields: METADATA_FIELDS.length + 4,
      maxFieldBytes: FILE_THUMBNAIL_MAX_CHARS + 1024,
      maxFileBytes: BLOB_MAX_BYTES,
    });
    try {
      const metadata = metadataOfFields(form.fields);
      const { fileId, uploadUrl } = await this.rpc.call('files.create-upload', ctx, {
        ...metadata,
        storageType: 'cloudinary',
      });
      await this.blobs.put(uploadUrl, form.file, metadata.encryptedSize);
      await form.finished;
      await this.rpc.call('files.complete-upload', ctx, { fileId });
      return { fileId };
    } catch (error) {
      form.abort();
      throw error;
    }
  }
}
