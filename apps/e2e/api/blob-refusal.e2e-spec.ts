/**
 * An upload the files service refuses before reading its body (an unsigned or forged blob URL)
 * answers its 4xx every time, through the gateway, however large the body: the refusal must not
 * turn into a 503 because a connection was reset under the answer (the files service lingers to
 * read what is still in flight instead of closing on it).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { e2eEnv } from '../support/env';

const env = e2eEnv();
const MiB = 1024 * 1024;

async function put(path: string, body: Buffer): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${env.baseUrl}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('blob route: a refused upload answers its refusal', () => {
  it.each([
    ['without a signature', ''],
    ['with a forged signature', '?expires=9999999999&sig=' + 'a'.repeat(64)],
  ])('answers 403 LINK_INVALID to 4 MiB PUTs %s, ten times in a row', async (_label, query) => {
    const body = randomBytes(4 * MiB);
    for (let i = 0; i < 10; i += 1) {
      const res = await put(`/api/files/blob/${randomUUID()}/${randomUUID()}${query}`, body);
      expect(res).toEqual({
        status: 403,
        body: expect.objectContaining({ code: 'LINK_INVALID', error: 'This link is invalid or has expired' }),
      });
    }
  });

  it('still serves uploads on the same gateway afterwards (no connection left half-written)', async () => {
    const health = await fetch(`${env.baseUrl}/api/health`);
    expect(health.status).toBe(200);
  });
});
