import { Controller, Req, Res } from '@nestjs/common';
import { ErrorCode as E, UPLOAD_PART_MAX_BYTES } from '@vault/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/auth.decorators';
import { Route, type ApiDoc } from '../../openapi/api-doc';
import { BLOB_BYTES } from '../../openapi/components';
import { BLOB_MAX_BYTES, FilesBlobProxy } from '../../proxy/files-blob.proxy';
import { RateLimit } from '../../security/rate-limit.decorator';
import { blobKeyParamSchema, blobQuerySchema } from './files-blob.schema';

/** The signed URL, documented: the proxy passes it through, the files service checks it. */
const SIGNED_URL = { params: blobKeyParamSchema, query: blobQuerySchema } satisfies Partial<ApiDoc>;
const READ_ERRORS = [E.LINK_INVALID, E.FILE_INFECTED, E.NOT_FOUND];

/**
 * `PUT|GET|HEAD /api/files/blob/*`: the signed URLs of the local driver (and of Cloudinary
 * through the files service). Public: the URL's HMAC signature is the credential, checked by the
 * files service. Streamed both ways, unchanged (FilesBlobProxy); its own per-IP limit.
 * HEAD is declared before GET, so Fastify does not derive a HEAD that would run a GET upstream.
 */
@Controller('files/blob')
@Public()
@RateLimit('blob')
export class FilesBlobController {
  constructor(private readonly blobs: FilesBlobProxy) {}

  @Route('head', '*', {
    ...SIGNED_URL,
    summary: 'As GET, headers only (Content-Length, Accept-Ranges)',
    success: [{ description: 'The object’s headers' }],
    errors: READ_ERRORS,
  })
  headBlob(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.blobs.forward(request, reply);
  }

  @Route('get', '*', {
    ...SIGNED_URL,
    summary:
      'Signed download URL (from download-url or preview): the stored encrypted bytes, streamed. One ' +
      'byte range (Range: bytes=a-b) answers 206 with Content-Range',
    success: [
      { description: 'The encrypted object', binary: true },
      { status: 206, description: 'The requested range of the encrypted object', binary: true },
    ],
    errors: READ_ERRORS,
  })
  getBlob(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.blobs.forward(request, reply);
  }

  @Route('put', '*', {
    ...SIGNED_URL,
    summary:
      'Signed upload URL of this deployment’s own storage (local disk, Cloudinary through the files ' +
      'service): no token, the URL’s signature is the credential. The encrypted bytes, exactly the ' +
      `declared encryptedSize (at most ${BLOB_MAX_BYTES} bytes), streamed to storage. objectKey is ` +
      '<ownerId>/<fileId> (it holds a slash); op, exp, len and sig come in the query as signed. ' +
      'Where upload-url answered partSize (local storage), the bytes may instead come in PARTS, in ' +
      'order, each a PUT to the same URL with Content-Range: bytes <first>-<last>/<encryptedSize> ' +
      `and at most partSize (${UPLOAD_PART_MAX_BYTES}) bytes: first 0 starts over, any other first ` +
      'must equal the bytes stored so far (409 names where the next part starts), a refused part ' +
      'changes nothing and can be resent, and the last part puts the object in place. The first ' +
      'part needs an unexpired URL; later parts of an upload still pending may follow after expiry',
    headers: [
      {
        name: 'Content-Range',
        description:
          'One part of an upload in parts: bytes <first>-<last>/<encryptedSize> (inclusive); ' +
          'only where upload-url answered partSize',
      },
    ],
    body: BLOB_BYTES,
    success: [{ status: 204, description: 'Stored (the object, or one part of it)' }],
    errors: [E.UPLOAD_SIZE_MISMATCH, E.LINK_INVALID, E.CONFLICT],
  })
  putBlob(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.blobs.forward(request, reply);
  }
}
