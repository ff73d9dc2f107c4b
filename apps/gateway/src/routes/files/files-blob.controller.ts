import { Controller, Get, Head, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../auth/auth.decorators';
import { FilesBlobProxy } from '../../proxy/files-blob.proxy';
import { RateLimit } from '../../security/rate-limit.decorator';

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

  @Head('*')
  head(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.blobs.forward(request, reply);
  }

  @Get('*')
  download(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.blobs.forward(request, reply);
  }

  @Put('*')
  upload(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.blobs.forward(request, reply);
  }
}
