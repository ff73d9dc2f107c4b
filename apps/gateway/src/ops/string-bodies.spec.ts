import Fastify from 'fastify';
import { registerStringBodies, STRING_BODY_MIN_CHARS } from './string-bodies';

describe(registerStringBodies.name, () => {
  const long = (text: string) => text.repeat(Math.ceil((STRING_BODY_MIN_CHARS * 2) / text.length));

  it.each([
    ['a large ASCII object', { notes: long('ab12') }],
    ['a large object with non-ASCII text', { title: long('Grüße 🙂 ') }],
    ['a small object', { ok: true, name: 'é' }],
  ])('sends %s byte for byte, with its length', async (_label, body) => {
    const fastify = Fastify();
    registerStringBodies(fastify);
    fastify.get('/', async () => body);
    const res = await fastify.inject({ method: 'GET', url: '/' });
    await fastify.close();

    const expected = Buffer.from(JSON.stringify(body), 'utf8');
    expect(res.rawPayload.equals(expected)).toBe(true);
    expect(Number(res.headers['content-length'])).toBe(expected.length);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
