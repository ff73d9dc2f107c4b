import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { ErrorCode, VaultError } from '@vault/contracts';
import busboy from 'busboy';

/** The answers of a multipart upload the gateway refuses (400 unless said otherwise). */
export const MULTIPART_MESSAGES = {
  notMultipart: 'Request body must be multipart/form-data',
  fieldsFirst: 'Send the metadata fields before the file',
  noFile: 'No file was sent: add a part named "file" after the metadata fields',
  fileNotAFile: 'Send "file" as a file part (with a filename or Content-Type: application/octet-stream)',
  oneFile: 'Send one file per upload',
  tooManyFields: 'Too many fields',
  malformed: 'Malformed multipart body',
  duplicate: (name: string) => `Duplicate field: ${name}`,
  unknown: (name: string) => `Unknown field: ${name}`,
  /** 413 */
  fieldTooLarge: (name: string) => `Field too large: ${name}`,
} as const;

export interface MultipartUploadOptions {
  /** Text fields that must all have arrived when the file part begins. */
  requiredFields: readonly string[];
  /** Name of the one file part, which comes last. */
  fileField: string;
  maxFields: number;
  /** Longest text field value, in bytes; a longer one answers 413. */
  maxFieldBytes: number;
  /** Largest file part, in bytes; a larger one fails its stream with 413. */
  maxFileBytes: number;
}

export interface MultipartUpload {
  /** The text fields sent before the file, by name (each at most once). */
  fields: Record<string, string>;
  /** The file part's bytes, as they arrive: read it once, never buffered here. */
  file: Readable;
  /**
   * Settles when the whole body has been read, after `file` ended: rejects when anything
   * follows the file (a field or a second file) or the body breaks off or is malformed.
   */
  finished: Promise<void>;
  /** Stops parsing the request (an upload refused part-way); the rest is dropped after the answer (lingerThenClose). */
  abort(): void;
}

const bad = (message: string) => new VaultError(ErrorCode.VALIDATION_FAILED, message);

/**
 * Streams a multipart/form-data upload (busboy): text fields first, then one file part, which
 * is handed over as a stream the moment it begins, so the caller can validate the fields and
 * then pipe the bytes on without ever holding them. Resolves when the file part begins;
 * rejects with a 400 VaultError for anything else (not multipart, the file before all required
 * fields, no file, a field twice, an unknown part name) and 413 for a field over the limit.
 */
export function readMultipartUpload(
  request: IncomingMessage,
  options: MultipartUploadOptions,
): Promise<MultipartUpload> {
  return new Promise<MultipartUpload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        limits: {
          fields: options.maxFields,
          fieldSize: options.maxFieldBytes,
          fieldNameSize: 200,
          files: 1,
          fileSize: options.maxFileBytes,
        },
      });
    } catch {
      reject(bad(MULTIPART_MESSAGES.notMultipart));
      return;
    }

    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    let file: Readable | undefined;
    /** The file part has been received whole (a later part, or the end of the form, came). */
    let fileComplete = false;
    let upload: MultipartUpload | undefined;
    let failed = false;
    let settleFinished: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const finished = new Promise<void>((res, rej) => {
      settleFinished = { resolve: res, reject: rej };
    });
    // Observed by the caller after the file went through; never an unhandled rejection before.
    finished.catch(() => undefined);

    const stop = () => {
      request.unpipe(parser);
      request.pause();
    };
    const fail = (error: VaultError) => {
      if (failed) return;
      failed = true;
      stop();
      if (!upload) {
        reject(error);
      } else {
        // A file cut short may be flowing into an upstream upload: end it with the error, so
        // that upload is aborted rather than completed. A whole file stays as it is.
        if (file && !fileComplete && !file.readableEnded) file.destroy(error);
        settleFinished?.reject(error);
      }
    };

    parser.on('field', (name, value, info) => {
      if (file) {
        fileComplete = true;
        return fail(bad(MULTIPART_MESSAGES.fieldsFirst));
      }
      if (info.nameTruncated || info.valueTruncated) {
        return fail(new VaultError(ErrorCode.PAYLOAD_TOO_LARGE, MULTIPART_MESSAGES.fieldTooLarge(name)));
      }
      if (name === options.fileField) return fail(bad(MULTIPART_MESSAGES.fileNotAFile));
      if (Object.prototype.hasOwnProperty.call(fields, name)) {
        return fail(bad(MULTIPART_MESSAGES.duplicate(name)));
      }
      fields[name] = value;
    });

    parser.on('file', (name, stream) => {
      if (failed) {
        stream.resume();
        return;
      }
      if (name !== options.fileField) {
        stream.resume();
        return fail(bad(MULTIPART_MESSAGES.unknown(name)));
      }
      if (options.requiredFields.some((f) => !Object.prototype.hasOwnProperty.call(fields, f))) {
        stream.resume();
        return fail(bad(MULTIPART_MESSAGES.fieldsFirst));
      }
      // busboy ends a file part the body cut short with a plain Error ('Unexpected end of form'),
      // before its own 'error': the consumer gets this parser's 400 instead (never a 500).
      const destroy = stream.destroy.bind(stream);
      stream.destroy = (error?: Error) =>
        destroy(
          error === undefined || error instanceof VaultError ? error : bad(MULTIPART_MESSAGES.malformed),
        );
      file = stream;
      // The consumer attaches its own handling when it reads; this keeps an error raised
      // before then (the body breaking off) from being an uncaught 'error' event.
      stream.on('error', () => undefined);
      stream.once('limit', () =>
        stream.destroy(
          new VaultError(ErrorCode.PAYLOAD_TOO_LARGE, undefined, { maxBytes: options.maxFileBytes }),
        ),
      );
      upload = {
        fields: { ...fields },
        file: stream,
        finished,
        abort: () => {
          failed = true;
          stop();
          if (!stream.destroyed) stream.destroy();
        },
      };
      resolve(upload);
    });

    parser.on('filesLimit', () => {
      fileComplete = true;
      fail(bad(MULTIPART_MESSAGES.oneFile));
    });
    parser.on('fieldsLimit', () => fail(bad(MULTIPART_MESSAGES.tooManyFields)));
    parser.on('error', () => fail(bad(MULTIPART_MESSAGES.malformed)));
    parser.on('close', () => {
      fileComplete = file !== undefined;
      if (failed) return;
      if (!file) fail(bad(MULTIPART_MESSAGES.noFile));
      else settleFinished?.resolve();
    });
    // A client that goes away mid-body never ends the stream busboy reads: end it here.
    request.on('close', () => {
      if (!request.readableEnded) fail(bad(MULTIPART_MESSAGES.malformed));
    });
    request.pipe(parser);
  });
}
