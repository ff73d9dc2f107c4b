import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** What a fault sees of a request: its method, URL (path and query) and headers. */
export interface FaultRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/**
 * A failure a test plants in a storage stand-in: the next matching request(s) fail the way a
 * store fails in production.
 *
 * - `refuse`: answered `status` (default 503) with the store's own error shape before the body
 *   is read (a store that is overloaded, or down behind its proxy).
 * - `reset`: the connection is destroyed once about `afterBytes` (default 0) of the request's
 *   body have arrived (a store that goes away in the middle of a transfer).
 */
export interface StorageFault {
  action: 'refuse' | 'reset';
  /** Which requests it hits (default: every request but CORS preflights). */
  match?: (req: FaultRequest) => boolean;
  afterBytes?: number;
  status?: number;
  /** Matching requests it hits before it is used up (default 1). */
  times?: number;
}

/** The faults a stand-in holds; `take` hands out the first that matches a request. */
export class StorageFaults {
  private readonly planted: { fault: StorageFault; left: number }[] = [];
  /** Requests a fault hit, oldest first (method, path without the query, action). */
  readonly hits: { method: string; path: string; action: StorageFault['action'] }[] = [];

  add(fault: StorageFault): void {
    this.planted.push({ fault, left: fault.times ?? 1 });
  }

  clear(): void {
    this.planted.length = 0;
  }

  /** Faults not used up yet. */
  get pending(): number {
    return this.planted.length;
  }

  take(req: FaultRequest): StorageFault | undefined {
    const index = this.planted.findIndex(({ fault }) =>
      fault.match ? fault.match(req) : req.method !== 'OPTIONS',
    );
    if (index === -1) return undefined;
    const entry = this.planted[index]!;
    entry.left -= 1;
    if (entry.left <= 0) this.planted.splice(index, 1);
    this.hits.push({ method: req.method, path: req.url.split('?')[0] ?? '', action: entry.fault.action });
    return entry.fault;
  }
}

/**
 * Destroys the request's connection once about `afterBytes` of its body have arrived. Counted
 * on the socket (a listener on the request itself would switch it to flowing before the
 * handler reads it), so the figure includes any chunked framing.
 */
export function resetAfter(req: IncomingMessage, afterBytes: number): void {
  if (afterBytes <= 0) {
    req.socket.destroy();
    return;
  }
  let seen = 0;
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen >= afterBytes) {
      req.socket.off('data', onData);
      req.socket.destroy();
    }
  };
  req.socket.on('data', onData);
  req.once('end', () => req.socket.off('data', onData));
}
