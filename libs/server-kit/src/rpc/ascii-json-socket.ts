import { JsonSocket } from '@nestjs/microservices';
import { RawJson } from '@vault/contracts';
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
 * A frame whose reply carries a RawJson starts with this: `{"rawJson":["<key>",<chars>],`, then
 * the rest of the message with that property of `response` written last, as its text. Any JSON
 * reader still sees the whole message (and ignores `rawJson`); this socket reads only the part
 * before the text and hands the text on as a RawJson, never parsed.
 */
const RAW_HEAD = /^\{"rawJson":\[("[A-Za-z][A-Za-z0-9]{0,63}"),(\d{1,10})\],/;
/** A key that needs no escaping, as RAW_HEAD expects it. */
const RAW_KEY = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/** The property of a reply that is a RawJson (at most one is written raw), if any. */
function rawProperty(message: unknown): [string, RawJson] | undefined {
  const response = (message as { response?: unknown } | null)?.response;
  if (response === null || typeof response !== 'object') return undefined;
  for (const [key, value] of Object.entries(response)) {
    if (value instanceof RawJson && RAW_KEY.test(key)) return [key, value];
  }
  return undefined;
}

/**
 * The frame's JSON, in parts to be written one after another: JSON.stringify's, except that a
 * RawJson property of the reply goes in as its text (its own parts, never joined).
 */
export function framePieces(message: unknown): string[] {
  const raw = rawProperty(message);
  if (!raw) return [JSON.stringify(message)];
  const [key, value] = raw;
  const { response, ...envelope } = message as { response: Record<string, unknown> };
  const { [key]: _raw, ...rest } = response;
  // `{…,"response":{…}}`: its last two braces are the reply's and the message's.
  const head = JSON.stringify({ ...envelope, response: rest });
  const keyText = JSON.stringify(key);
  const comma = Object.keys(rest).length === 0 ? '' : ',';
  return [
    `{"rawJson":[${keyText},${value.length}],${head.slice(1, -2)}${comma}${keyText}:`,
    ...value.parts,
    '}}',
  ];
}

/** A RawJson's UTF-8 bytes, part by part (utf8Bytes is fast on each, slow on them joined). */
export function rawJsonBytes(value: RawJson): Buffer {
  return Buffer.concat(value.parts.map(utf8Bytes));
}

/**
 * A frame's message, the RawJson property read back without parsing its text; a frame that does
 * not have that exact shape is parsed whole (undefined here).
 */
export function readRawFrame(data: string): Record<string, unknown> | undefined {
  const head = RAW_HEAD.exec(data);
  if (!head) return undefined;
  const keyText = head[1] as string;
  const end = data.length - 2;
  const start = end - Number(head[2]);
  if (
    start < head[0].length ||
    !data.endsWith('}}') ||
    !data.startsWith(`${keyText}:`, start - keyText.length - 1)
  ) {
    return undefined;
  }
  let message: { response?: Record<string, unknown> };
  try {
    message = JSON.parse(`{${data.slice(head[0].length, start)}null}}`) as typeof message;
  } catch {
    return undefined;
  }
  if (message.response === null || typeof message.response !== 'object') return undefined;
  message.response[JSON.parse(keyText) as string] = new RawJson(data.slice(start, end));
  return message;
}

/**
 * Nest's TCP framing (JsonSocket: `<length>#<json>`), the same bytes on the wire (either end may be
 * a plain JsonSocket), written as a short header and the JSON's bytes from utf8Bytes: JsonSocket
 * joins the two into one string first, and both V8's UTF-8 encoder and the ASCII check are slow
 * on such a joined string (about 4 ms per MB each), fast on JSON.stringify's flat one. A reply's
 * RawJson travels as its text both ways (framePieces, readRawFrame).
 */
export class AsciiJsonSocket extends JsonSocket {
  protected override handleSend(message: unknown, callback?: (err?: unknown) => void): void {
    const pieces = framePieces(message);
    const socket = this.netSocket as Socket;
    socket.cork();
    socket.write(`${pieces.reduce((sum, piece) => sum + piece.length, 0)}#`, 'latin1');
    let flushed = true;
    pieces.forEach((piece, i) => {
      flushed = socket.write(utf8Bytes(piece), i === pieces.length - 1 ? callback : undefined);
    });
    socket.uncork();
    // What JsonSocket.handleSend does after its write: pause reading while the peer lags behind,
    // and drop a peer that reads nothing at all.
    const flow = this as unknown as JsonSocketFlowControl;
    if (!flushed) flow.applyBackpressure();
    flow.assertSendBufferWithinLimit();
  }

  protected override emitMessage(data: string): void {
    const message = readRawFrame(data);
    if (message) this.netSocket.emit('message', message);
    else super.emitMessage(data);
  }
}
