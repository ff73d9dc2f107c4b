import { RawJson } from '@vault/contracts';
import Fastify from 'fastify';
import { registerStringBodies, STRING_BODY_MIN_CHARS } from './string-bodies';

describe(registerStringBodies.name, () => {
  const long = (text: string) => text.repeat(Math.ceil((STRING_BODY_MIN_CHARS * 2) / text.length));
  /** The response of a server whose one route answers `body`. */
  async function answer(body: unknown) {
    const fastify = Fastify();
    registerStringBodies(fastify);
    fastify.get('/', async () => body);
    const res = await fastify.inject({ method: 'GET', url: '/' });
    await fastify.close();
    return res;
  }

  it.each([
    ['a large ASCII object', { notes: long('ab12') }],
    ['a large object with non-ASCII text', { title: long('Grüße 🙂 ') }],
    ['a small object', { ok: true, name: 'é' }],
  ])('sends %s byte for byte, with its length', async (_label, body) => {
    const res = await answer(body);

    const expected = Buffer.from(JSON.stringify(body), 'utf8');
    expect(res.rawPayload.equals(expected)).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(expected.length);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it.each([
    ['a large RawJson', new RawJson(JSON.stringify({ notes: [{ title: long('ab12') }], nextCursor: null }))],
    // Spaces that JSON.stringify would not write: the text goes out as it is, never parsed again.
    [
      'a small RawJson with non-ASCII text',
      new RawJson('{ "notes": [{"title":"Grüße 🙂"}], "nextCursor": "c" }'),
    ],
  ])('sends %s as its very text, byte for byte, as JSON', async (_label, body) => {
    const res = await answer(body);

    expect(res.rawPayload.equals(Buffer.from(body.text, 'utf8'))).toBe(true);
    expect(res.json()).toEqual(JSON.parse(body.text));
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(body.text));
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
