/**
 * A JSON value carried as its text: a large RPC reply (a page of the notes list) that the gateway
 * passes on to the browser without parsing it and writing it again (docs/architecture.md "How the
 * parts talk", bench/README.md "Load"). The TCP transport's socket (server-kit's AsciiJsonSocket)
 * writes the text into the frame as it is and hands the receiver a RawJson again; any other
 * serialiser (NATS, a plain Nest JsonSocket, a test) meets `toJSON` and writes the value itself,
 * so the data on the wire is the same either way.
 *
 * The text may come in parts, written one after another: joining them into one string would make
 * V8 copy it again, and a joined string's bytes are slow to take (server-kit's utf8Bytes). The
 * parts together must be what JSON.stringify made of a T, and no part may end between the two
 * halves of a surrogate pair (each part is encoded on its own).
 */
export class RawJson<T = unknown> {
  readonly parts: readonly string[];

  constructor(...parts: string[]) {
    this.parts = parts;
  }

  /** The whole text (the parts joined: a copy when there are several). */
  get text(): string {
    return this.parts.length === 1 ? (this.parts[0] as string) : this.parts.join('');
  }

  /** The text's length in characters. */
  get length(): number {
    return this.parts.reduce((sum, part) => sum + part.length, 0);
  }

  /** The value itself, for a serialiser that does not know RawJson. */
  toJSON(): T {
    return JSON.parse(this.text) as T;
  }

  /** The value's text, from either form (a RawJson, or the value itself). */
  static textOf<T>(value: T | RawJson<T>): string {
    return value instanceof RawJson ? value.text : JSON.stringify(value);
  }
}
