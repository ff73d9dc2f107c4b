import { z } from 'zod';
import { FORBIDDEN_TEXT_MESSAGE, parseFirst, plainText, requiredString, strictBody } from './validation';

const CONTROL = ['\u0000', '\u0001', '\t', '\n', '\r', '\u001b', '\u007f', '\u0085', '\u009f'];

describe('plain-text fields', () => {
  const field = requiredString(20, 'Too long', 'Bad characters');

  it.each(CONTROL.map((c) => [JSON.stringify(c), c]))(
    "refuse the control character %s with the field's own message",
    (_label, c) => {
      expect(parseFirst(strictBody({ name: field }), { name: `ab${c}cd` })).toMatchObject({
        ok: false,
        message: 'Bad characters',
        path: ['name'],
      });
    },
  );

  it('refuse a lone surrogate, and take a paired one (an emoji)', () => {
    expect(parseFirst(strictBody({ name: field }), { name: 'ab\ud800cd' })).toMatchObject({ ok: false });
    expect(parseFirst(strictBody({ name: field }), { name: 'ab\udc00' })).toMatchObject({ ok: false });
    expect(parseFirst(strictBody({ name: field }), { name: 'ab 😀 é' })).toMatchObject({ ok: true });
  });

  it('keep the required message for a missing or blank value', () => {
    expect(parseFirst(strictBody({ name: field }), {})).toMatchObject({
      message: 'Please fill in all fields',
    });
    expect(parseFirst(strictBody({ name: field }), { name: '  ' })).toMatchObject({
      message: 'Please fill in all fields',
    });
    expect(parseFirst(strictBody({ name: plainText('Bad', 'Needed') }), {})).toMatchObject({
      message: 'Needed',
    });
  });
});

describe('parseFirst backstop', () => {
  it('refuses NUL or a lone surrogate in any string a schema let through, naming where', () => {
    const loose = z.object({ meta: z.record(z.string(), z.unknown()) });
    expect(parseFirst(loose, { meta: { a: ['ok', 'x\u0000y'] } })).toEqual({
      ok: false,
      message: FORBIDDEN_TEXT_MESSAGE,
      path: ['meta', 'a', 1],
    });
    expect(parseFirst(loose, { meta: { 'k\ud800': 1 } })).toMatchObject({
      ok: false,
      path: ['meta', 'k\ud800'],
    });
    expect(parseFirst(z.string(), 'a\u0000')).toMatchObject({ ok: false, path: [] });
  });

  it('judges what the schema hands on: a field it drops or replaces does not count', () => {
    const lenient = z.object({ token: z.string().max(3).optional().catch(undefined) });
    expect(parseFirst(lenient, { token: 'x\u0000yyyy' })).toEqual({ ok: true, data: { token: undefined } });
  });

  it('lets other text through untouched', () => {
    const loose = z.object({ meta: z.record(z.string(), z.unknown()) });
    expect(parseFirst(loose, { meta: { note: 'line\nbreak\ttab 😀' } })).toEqual({
      ok: true,
      data: { meta: { note: 'line\nbreak\ttab 😀' } },
    });
  });

  it('reports the schema’s own message first', () => {
    expect(parseFirst(strictBody({ n: z.number({ error: 'A number' }) }), { n: 'x\u0000' })).toMatchObject({
      message: 'A number',
    });
  });
});
