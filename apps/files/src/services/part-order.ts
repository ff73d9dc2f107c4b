/** How long a part that arrived early waits for the one before it (the browser sends a few at once). */
export const PART_WAIT_MS = 2_000;

interface Upload {
  /** Settles when every part queued so far has been answered. */
  tail: Promise<unknown>;
  /** End offsets (last + 1) of the parts queued here: a part starting at one of them may follow. */
  ends: Set<number>;
  /** Parts waiting for the one that ends where they start, by that offset. */
  waiters: Map<number, Array<() => void>>;
  /** Parts waiting or queued; the entry goes when none is left. */
  users: number;
}

/**
 * Puts the parts of one upload that reach this process at once in byte order, for a store that
 * takes them one after another (Cloudinary's chunked upload). The browser sends a few parts on
 * separate connections, so the third may arrive before the second: it waits (at most `waitMs`)
 * until the part ending where it starts is queued, then runs after it. A part whose predecessor
 * is already stored goes at once; one that waited in vain runs anyway and the store's own check
 * refuses it (409 with the offset), which the client answers by sending it again.
 */
export class PartOrder {
  private readonly uploads = new Map<string, Upload>();

  constructor(private readonly waitMs = PART_WAIT_MS) {}

  /**
   * Runs `send` for the part `[first, end)` of upload `id` after the parts before it.
   * `storedBytes` reads how far the upload stands, asked only when the part before is not queued.
   */
  async run<T>(
    id: string,
    first: number,
    end: number,
    storedBytes: () => Promise<number>,
    send: () => Promise<T>,
  ): Promise<T> {
    const upload = this.uploadOf(id);
    upload.users += 1;
    try {
      if (first > 0 && !upload.ends.has(first) && (await storedBytes()) < first) {
        await this.arrivalOf(upload, first);
      }
      upload.ends.add(end);
      for (const wake of upload.waiters.get(end) ?? []) wake();
      const run = upload.tail.then(send);
      upload.tail = run.catch(() => undefined);
      return await run;
    } finally {
      upload.users -= 1;
      if (upload.users === 0) this.uploads.delete(id);
    }
  }

  /** Uploads with a part waiting or queued (for tests: nothing is kept once they are answered). */
  get size(): number {
    return this.uploads.size;
  }

  private uploadOf(id: string): Upload {
    let upload = this.uploads.get(id);
    if (!upload) {
      upload = { tail: Promise.resolve(), ends: new Set(), waiters: new Map(), users: 0 };
      this.uploads.set(id, upload);
    }
    return upload;
  }

  /** Resolves once a part ending at `first` is queued, or after `waitMs`. */
  private arrivalOf(upload: Upload, first: number): Promise<void> {
    // The part before may have been queued while the stored offset was read.
    if (upload.ends.has(first)) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        const rest = (upload.waiters.get(first) ?? []).filter((w) => w !== wake);
        if (rest.length) upload.waiters.set(first, rest);
        else upload.waiters.delete(first);
        resolve();
      };
      const timer = setTimeout(wake, this.waitMs);
      timer.unref();
      upload.waiters.set(first, [...(upload.waiters.get(first) ?? []), wake]);
    });
  }
}
