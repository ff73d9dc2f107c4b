import { JsonSocket } from '@nestjs/microservices';
import { RawJson } from '@vault/contracts';
import fc from 'fast-check';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { AsciiJsonSocket, framePieces, rawJsonBytes, readRawFrame, utf8Bytes } from './ascii-json-socket';

/** A message as any JSON reader sees it: RawJson values become the values they hold. */
const asJson = (message: unknown): unknown => JSON.parse(JSON.stringify(message));
const frameJson = (message: unknown): string => framePieces(message).join('');

describe(utf8Bytes.name, () => {
  it('gives exactly the UTF-8 bytes of any string, ASCII or not', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })),
        (text) => {
          expect(utf8Bytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
        },
      ),
      { seed: 20261126, numRuns: 2000 },
    );
  });

  it('takes the Latin-1 copy only for ASCII: é, a lone surrogate and U+0080 go through UTF-8', () => {
    for (const text of ['{"a":"é"}', '\ud800', '\u0080', 'x'.repeat(100_000) + 'ü']) {
      expect(utf8Bytes(text)).toEqual(Buffer.from(text, 'utf8'));
    }
  });
});

describe('a reply’s RawJson in a frame (framePieces, readRawFrame)', () => {
  const key = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/);
  // A value's text, cut into parts at random places.
  const rawJson = fc.tuple(fc.jsonValue(), fc.array(fc.nat(), { maxLength: 3 })).map(([value, cuts]) => {
    const text = JSON.stringify(value);
    const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
    return new RawJson(...[0, ...at].map((from, i) => text.slice(from, at[i] ?? text.length)));
  });
  const reply = fc.record({
    id: fc.uuid(),
    isDisposed: fc.boolean(),
    response: fc
      .tuple(fc.dictionary(key, fc.jsonValue(), { maxKeys: 3 }), key, rawJson)
      .map(([rest, rawKey, raw]) => ({ ...rest, [rawKey]: raw })),
  });

  it('reads back every reply: the RawJson as its very text, the rest as sent; any JSON reader sees the same data', () => {
    fc.assert(
      fc.property(reply, (message) => {
        const json = frameJson(message);
        const read = readRawFrame(json) as typeof message;
        expect(asJson(read)).toEqual(asJson(message));
        const [rawKey, raw] = Object.entries(message.response).find(([, v]) => v instanceof RawJson) as [
          string,
          RawJson,
        ];
        expect(read.response[rawKey]).toBeInstanceOf(RawJson);
        expect((read.response[rawKey] as RawJson).text).toBe(raw.text);
        const { rawJson: head, ...parsed } = JSON.parse(json) as Record<string, unknown>;
        expect(head).toEqual([rawKey, raw.text.length]);
        expect(parsed).toEqual(asJson(message));
        expect(rawJsonBytes(raw).equals(Buffer.from(raw.text, 'utf8'))).toBe(true);
      }),
      { seed: 20261127, numRuns: 1000 },
    );
  });

  it('writes a reply without RawJson exactly as JSON.stringify does, and does not read it as raw', () => {
    for (const message of [
      { id: '1', response: { notes: [] } },
      { id: '2', err: 'x' },
      { pattern: 'a', data: 1 },
    ]) {
      expect(frameJson(message)).toBe(JSON.stringify(message));
      expect(readRawFrame(frameJson(message))).toBeUndefined();
    }
  });

  it('parses whole (undefined here) a frame whose head does not match its text', () => {
    const good = frameJson({ id: '1', response: { nextCursor: null, notes: new RawJson('[1,2]') } });
    expect(readRawFrame(good)).toBeDefined();
    for (const bad of [
      good.replace('"notes",5', '"notes",4'), // the text's length off by one
      good.replace('"notes",5', '"notes",99'), // longer than the frame
      good.replace('"rawJson":["notes"', '"rawJson":["other"'), // another key than the one written last
      good.slice(0, -1), // cut
      `${good.slice(0, 16)}x${good.slice(17)}`, // the head no longer JSON
    ]) {
      expect(readRawFrame(bad)).toBeUndefined();
    }
  });
});

describe(AsciiJsonSocket.name, () => {
  it('finds the flow control of Nest’s JsonSocket it calls (renamed in an upgrade: this fails)', () => {
    const proto = Object.getPrototypeOf(AsciiJsonSocket.prototype) as Record<string, unknown>;
    expect(typeof proto['applyBackpressure']).toBe('function');
    expect(typeof proto['assertSendBufferWithinLimit']).toBe('function');
  });

  let server: Server;
  let raw: Buffer[];
  let serverSide: Promise<Socket>;

  beforeEach(async () => {
    raw = [];
    server = createServer();
    serverSide = new Promise((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  async function pair(): Promise<{ client: AsciiJsonSocket; peer: AsciiJsonSocket; close: () => void }> {
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    const client = new AsciiJsonSocket(socket);
    const accepted = await serverSide;
    accepted.on('data', (chunk: Buffer) => raw.push(chunk));
    return { client, peer: new AsciiJsonSocket(accepted), close: () => socket.destroy() };
  }

  it('frames messages byte for byte as Nest’s JsonSocket does, ASCII or not, and they arrive whole', async () => {
    const { client, peer, close } = await pair();
    const messages = [
      { pattern: 'notes.list', data: { ctx: {}, body: { limit: 500 } }, id: '1' },
      {
        response: {
          notes: Array.from({ length: 300 }, (_, i) => ({ id: String(i), title: 'ab'.repeat(400) })),
        },
      },
      { response: { title: 'Grüße, 日本, 🙂' } },
    ];
    const received: unknown[] = [];
    const all = new Promise<void>((resolve) =>
      peer.on('message', (message: unknown) => {
        received.push(message);
        if (received.length === messages.length) resolve();
      }),
    );
    let written = 0;
    for (const message of messages) client.sendMessage(message, () => (written += 1));
    await all;
    close();

    expect(received).toEqual(messages);
    expect(written).toBe(messages.length);
    const expected = messages.map((m) => {
      const json = JSON.stringify(m);
      return `${json.length}#${json}`;
    });
    expect(Buffer.concat(raw).equals(Buffer.from(expected.join(''), 'utf8'))).toBe(true);
  });

  it('hands a reply’s RawJson to its peer as the same text, unparsed; a plain JsonSocket reads the value', async () => {
    // Spaces JSON.stringify would not write: a text that was parsed and written again loses them.
    // In parts, one cut inside a non-ASCII word: the receiver gets them as one text.
    const parts = ['[ {"id":"1","title":"Grü', 'ße"}, ', '{"id":"2"} ]'];
    const text = parts.join('');
    const message = {
      id: '7',
      isDisposed: true,
      response: { nextCursor: 'c', notes: new RawJson(...parts) },
    };

    const { client, peer, close } = await pair();
    const received = new Promise<{ response: { notes: unknown } }>((resolve) => peer.on('message', resolve));
    client.sendMessage(message);
    const got = await received;
    close();
    expect(got.response.notes).toBeInstanceOf(RawJson);
    expect((got.response.notes as RawJson).text).toBe(text);
    expect(asJson(got)).toEqual(asJson(message));

    const { port } = server.address() as AddressInfo;
    serverSide = new Promise((resolve) => server.once('connection', resolve));
    const socket = connect(port, '127.0.0.1');
    const sender = new AsciiJsonSocket(socket);
    const plain = new JsonSocket(await serverSide);
    const parsed = new Promise<unknown>((resolve) => plain.on('message', resolve));
    sender.sendMessage(message);
    const plainMessage = (await parsed) as Record<string, unknown>;
    socket.destroy();
    expect(plainMessage).toEqual({ rawJson: ['notes', text.length], ...(asJson(message) as object) });
  });
});
