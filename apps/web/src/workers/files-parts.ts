/**
 * Sends an upload's ciphertext in parts WHILE it is still being sealed, so sealing and sending
 * overlap instead of following each other (bench/files.bench.mjs: the whole-file path spent
 * about 0.6-0.8 s sealing 100 MiB before the first byte left). Used when upload-url announces
 * `partSize` (docs/api.md "Files"): through the files service's blob route (local disk,
 * Cloudinary) each part is `PUT <uploadUrl>` with `Content-Range: bytes first-last/total`, in
 * order, a few on the wire at once (the service stores them one after another); to S3 each part is
 * a PUT of its own presigned URL (`partUrls`, a multipart upload), without `Content-Range`. A
 * server that announces no parts gets the staged whole-object PUT.
 */

import { UploadHttpError, xhrPut } from './xhr-put';

/**
 * Bytes per part (the files service takes up to 16 MiB). bench/files.bench.mjs, 100 MiB, medians of
 * three: 8 MiB parts ×0.40-0.48 of the unencrypted upload, 16 MiB ×0.58-0.67 (fewer requests, each
 * with its signature check, lookup and file open on the service and its Blob in the browser).
 */
export const PART_BYTES = 16 * 1024 * 1024;
/**
 * The first part to the blob route is smaller, so the first bytes leave while the rest is still
 * being sealed instead of after a whole 16 MiB part: the contract's UPLOAD_PART_MIN_BYTES (5 MiB,
 * the smallest part Cloudinary takes behind the same route; not imported, to keep zod out of the
 * worker: files-parts.test.ts holds the two equal). Part URLs (S3) take parts of one size only.
 */
export const FIRST_PART_BYTES = 5 * 1024 * 1024;
/** Parts on the wire at once (with 16 MiB parts the browser holds at most about 48 MiB of them). */
export const PARTS_IN_FLIGHT = 3;
/** Sends of one part after the first failed one (network errors, 5xx, 429). */
const PART_RETRIES = 2;
const RETRY_DELAY_MS = 400;

/**
 * Where an upload's parts go: `url` taking ordered `Content-Range` parts of at most `partSize`
 * bytes (the blob route), or, with `partUrls`, one presigned URL per part (S3), every part but
 * the last exactly `partSize` bytes.
 */
export interface PartsTarget {
  url: string;
  partSize: number;
  partUrls?: string[];
}

export interface PartRequest {
  url: string;
  /** Whether the URL takes parts by `Content-Range` (the blob route) or is the part's own URL (S3). */
  ranged: boolean;
  /** The part's bytes, as a Blob: the browser sends it from its blob store, and a resend reuses it. */
  body: Blob;
  /** Inclusive byte offsets of the part in the stored object, and the object's size. */
  first: number;
  last: number;
  total: number;
  /** Called once the request body has left (the storage may still be storing it). */
  onBodySent?: () => void;
}

/** Stores one part; rejects with an UploadHttpError. */
export type PartPut = (part: PartRequest) => Promise<void>;

/**
 * The browser's way: XMLHttpRequest of the part's Blob. Measured in Chromium 156 from a worker, 13 parts
 * of 8 MiB to a local sink: a Blob 0.48-0.62 s; the bytes themselves as the body 6.7-7.5 s (fetch
 * and XHR alike: they cross to the network process in small pieces); each part first written to
 * its own OPFS file 0.49-0.81 s (and 1.4-1.7 s against 1.2-1.3 s for a Blob in the real upload).
 * Blobs die with the request, so the browser holds a few parts at most (bench/files.bench.mjs).
 */
export const blobPartPut: PartPut = ({ url, ranged, body, first, last, total, onBodySent }) =>
  xhrPut(url, body, {
    ...(ranged ? { headers: { 'Content-Range': `bytes ${first}-${last}/${total}` } } : {}),
    ...(onBodySent ? { onBodySent } : {}),
  });

function retryable(error: unknown): boolean {
  if (!(error instanceof UploadHttpError)) return false;
  return error.status === 0 || error.status === 429 || error.status >= 500;
}

/**
 * A 409 of a part sent while earlier ones were on the wire: it reached the storage before them
 * (separate connections), so it is sent again in order. A 409 of a part sent alone is final.
 */
function outOfOrder(error: unknown): boolean {
  return error instanceof UploadHttpError && error.status === 409;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Shipped {
  part: PartRequest;
  /** null once stored, else the error of the first try. */
  outcome: Promise<unknown>;
  /** Settles once the body has left, or the request ended. */
  left: Promise<unknown>;
  /** Earlier parts were still unconfirmed when this one was sent. */
  behind: boolean;
}

/**
 * Takes the stored object's bytes in order (any piece sizes) and PUTs them as parts of at most
 * `partBytes`, up to `inFlight` parts on the wire while the next one fills (the files service
 * stores the parts of one upload one after another, in order, so the wire stays busy while it
 * answers). `onSent(bytes)` reports the bytes the storage has confirmed, in order.
 *
 * A part that fails on the way (network, 5xx, 429) is sent again, with the parts after it (the
 * storage refused those as out of order), one at a time from the failed one's offset; to part URLs
 * (S3) only the failed part goes again. Every part stays in memory until the storage has it.
 */
export class PartSender {
  /** The part being filled: views of the sealed batches (copied once, into the part's Blob). */
  private pieces: Uint8Array[] = [];
  private filled = 0;
  /** Offset of the part being filled in the object. */
  private offset = 0;
  private readonly shipped: Shipped[] = [];
  private sent = 0;
  private readonly partBytes: number;
  private readonly firstPartBytes: number;
  private readonly url: string;
  private readonly partUrls: string[] | undefined;

  /**
   * `target` as upload-url answered it; `partBytes` caps the blob route's parts (a part URL's
   * part is exactly the target's `partSize`: the store joins them by number).
   */
  constructor(
    target: PartsTarget,
    private readonly total: number,
    partBytes: number,
    private readonly put: PartPut,
    private readonly onSent: (sent: number) => void = () => undefined,
    private readonly retryDelayMs = RETRY_DELAY_MS,
    private readonly inFlight = PARTS_IN_FLIGHT,
  ) {
    if (!Number.isSafeInteger(total) || total < 1) throw new Error('Nothing to upload');
    this.url = target.url;
    this.partUrls = target.partUrls;
    const size = this.partUrls ? target.partSize : Math.min(partBytes, target.partSize);
    this.partBytes = Math.max(1, Math.min(size, total));
    this.firstPartBytes = this.partUrls ? this.partBytes : Math.min(this.partBytes, FIRST_PART_BYTES);
    if (this.partUrls && this.partUrls.length !== Math.ceil(total / this.partBytes)) {
      throw new Error('The server sent a part URL list that does not match the file');
    }
  }

  /** Takes the next bytes of the object; they must not change afterwards (they are not copied until their part ships). */
  async write(bytes: Uint8Array): Promise<void> {
    if (this.offset + this.filled + bytes.length > this.total) {
      throw new Error('The encrypted file is larger than announced');
    }
    let at = 0;
    while (at < bytes.length) {
      const size = this.offset === 0 ? this.firstPartBytes : this.partBytes;
      const take = Math.min(bytes.length - at, size - this.filled);
      this.pieces.push(bytes.subarray(at, at + take));
      this.filled += take;
      at += take;
      if (this.filled === size) await this.ship();
    }
  }

  /** Sends what is left and waits until the storage has every byte. */
  async finish(): Promise<void> {
    if (this.filled > 0) await this.ship();
    while (this.shipped.length > 0) await this.settleOldest();
    if (this.sent !== this.total) {
      throw new Error(`The encrypted file has ${this.sent} bytes instead of ${this.total}`);
    }
  }

  /**
   * Puts the full buffer on the wire and fills another, when fewer than `inFlight` are out. To
   * the blob route a part starts only once the body of the one before it has left, so the
   * storage sees them begin in order; part URLs (S3) take their parts side by side.
   */
  private async ship(): Promise<void> {
    while (this.shipped.length >= this.inFlight) await this.settleOldest();
    const previous = this.shipped.at(-1);
    if (previous && !this.partUrls) await previous.left;
    const body = new Blob(this.pieces as BlobPart[], { type: 'application/octet-stream' });
    let bodySent: () => void = () => undefined;
    const sentBody = new Promise<void>((resolve) => (bodySent = resolve));
    const index = this.offset / this.partBytes;
    const part: PartRequest = {
      url: this.partUrls?.[index] ?? this.url,
      ranged: this.partUrls === undefined,
      body,
      first: this.offset,
      last: this.offset + body.size - 1,
      total: this.total,
      onBodySent: () => bodySent(),
    };
    const outcome = this.put(part).then(
      () => null,
      (error: unknown) => error ?? new Error('Upload failed'),
    );
    this.shipped.push({
      part,
      outcome,
      left: Promise.race([sentBody, outcome]),
      behind: previous !== undefined,
    });
    this.offset = part.last + 1;
    this.filled = 0;
    this.pieces = [];
  }

  /** Waits for the oldest part on the wire; on a failure, sends it and every later part again. */
  private async settleOldest(): Promise<void> {
    const oldest = this.shipped[0]!;
    const error = await oldest.outcome;
    if (error === null) {
      this.shipped.shift();
      this.confirm(oldest.part);
      return;
    }
    if (this.partUrls) {
      // Own URLs (S3): the store joins parts by number, so only the failed part goes again.
      if (!retryable(error)) throw error;
      this.shipped.shift();
      await this.resend(oldest.part, 1);
      return;
    }
    // Let the later parts end (the storage refuses them while this one is missing), then resend.
    await Promise.all(this.shipped.map((s) => s.outcome));
    const overtaken = outOfOrder(error) && oldest.behind;
    if (!retryable(error) && !overtaken) throw error;
    const again = this.shipped.splice(0);
    for (const [i, s] of again.entries()) await this.resend(s.part, i === 0 && !overtaken ? 1 : 0);
  }

  /** Sends a part again, at most PART_RETRIES tries in all after `failedTries` failures. */
  private async resend(part: PartRequest, failedTries: number): Promise<void> {
    const alone = { ...part, onBodySent: undefined };
    for (let attempt = failedTries; ; attempt++) {
      if (attempt > 0) await sleep(this.retryDelayMs * attempt);
      try {
        await this.put(alone);
        break;
      } catch (error) {
        if (attempt >= PART_RETRIES || !retryable(error)) throw error;
      }
    }
    this.confirm(part);
  }

  private confirm(part: PartRequest): void {
    this.sent = part.last + 1;
    this.onSent(this.sent);
  }
}
