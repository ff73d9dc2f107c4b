import type { IncomingMessage } from 'node:http';

/** How long the connection of a request refused before its body was read keeps reading it. */
export const REFUSED_BODY_LINGER_MS = 2_000;

/**
 * For a request answered before its body was read (an upload refused early: a bad signature, a
 * 401, a 413). Closing the connection at once while the peer still sends would reset it, and a
 * reset can destroy the answer before the peer reads it: a proxy in front (the gateway before the
 * files service, nginx before the gateway) then reports a 502 or 503 in place of the 4xx. So the
 * connection is not closed by the answer: the rest of the body is read and dropped (the peer
 * normally stops sending once it has the answer), and a peer that keeps sending is cut off after
 * `lingerMs`, never after a whole 100 MB upload. Call it once the answer is sent or sending, after
 * the body was unpiped from wherever it was going.
 */
export function lingerThenClose(req: IncomingMessage, lingerMs = REFUSED_BODY_LINGER_MS): void {
  if (req.complete || req.destroyed) return;
  req.resume();
  // An unfinished IncomingMessage destroys its socket with it.
  const timer = setTimeout(() => req.destroy(), lingerMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
}
