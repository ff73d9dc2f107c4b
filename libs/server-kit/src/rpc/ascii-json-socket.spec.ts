import fc from 'fast-check';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { AsciiJsonSocket, utf8Bytes } from './ascii-json-socket';

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
});
