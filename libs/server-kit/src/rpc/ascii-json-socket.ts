import { JsonSocket } from '@nestjs/microservices';
import type { Socket } from 'node:net';

/**
 * A string's UTF-8 bytes. Node 20's UTF-8 encoder costs about 5 ms of CPU per MB of JSON here,
 * while a string of ASCII only is its own Latin-1 bytes, copied in 0.1 ms: the notes list's RPC
 * answers and HTTP bodies are ASCII (hex, base64url, ids, ISO dates), and spent more time in that
 * encoder than anywhere else (bench/README.md "Load"). `Buffer.byteLength` equals the length
 * exactly when every character is below U+0080; anything else takes the UTF-8 path.
 */
export function utf8Bytes(text: string): Buffer {
  return Buffer.byteLength(text, 'utf8') === text.length
    ? Buffer.from(text, 'latin1')
    : Buffer.from(text, 'utf8');
}

/** JsonSocket's own flow control, private in its typings: a test checks that both still exist. */
interface JsonSocketFlowControl {
  applyBackpressure(): void;
  assertSendBufferWithinLimit(): void;
}

/**
 * Nest's TCP framing (JsonSocket: `<length>#<json>`), the same bytes on the wire (either end may be
 * a plain JsonSocket), written as a short header and the JSON's bytes from utf8Bytes: JsonSocket
 * joins the two into one string first, and both V8's UTF-8 encoder and the ASCII check are slow
 * on such a joined string (about 4 ms per MB each), fast on JSON.stringify's flat one.
 */
export class AsciiJsonSocket extends JsonSocket {
  protected override handleSend(message: unknown, callback?: (err?: unknown) => void): void {
    const json = JSON.stringify(message);
    const socket = this.netSocket as Socket;
    socket.cork();
    socket.write(`${json.length}#`, 'latin1');
    const flushed = socket.write(utf8Bytes(json), callback);
    socket.uncork();
    // What JsonSocket.handleSend does after its write: pause reading while the peer lags behind,
    // and drop a peer that reads nothing at all.
    const flow = this as unknown as JsonSocketFlowControl;
    if (!flushed) flow.applyBackpressure();
    flow.assertSendBufferWithinLimit();
  }
}
