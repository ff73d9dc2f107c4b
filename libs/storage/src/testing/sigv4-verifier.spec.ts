import { Client } from 'minio';
import { verifySigV4 } from './sigv4-verifier';

const credentials = (key: string) => (key === 'AKID' ? 'SECRET' : undefined);
const client = new Client({
  endPoint: '127.0.0.1',
  port: 9000,
  useSSL: false,
  region: 'us-east-1',
  accessKey: 'AKID',
  secretKey: 'SECRET',
});

async function presigned(key: string, method: 'GET' | 'PUT' = 'GET'): Promise<URL> {
  return new URL(await client.presignedUrl(method, 'bucket', key, 60));
}

function check(url: URL, method = 'GET', host = url.host) {
  return verifySigV4({ method, url: url.pathname + url.search, headers: { host } }, credentials);
}

describe(verifySigV4.name, () => {
  it('accepts URLs presigned by the minio client (GET and PUT)', async () => {
    expect(check(await presigned('owner/file'))).toEqual({ ok: true, accessKey: 'AKID' });
    expect(check(await presigned('owner/file', 'PUT'), 'PUT')).toMatchObject({ ok: true });
  });

  it('refuses the URL of one key used for another', async () => {
    const url = await presigned('owner-a/file');
    url.pathname = '/bucket/owner-b/file';
    expect(check(url)).toEqual({ ok: false, reason: 'signature does not match' });
  });

  it('refuses another method, another host, a changed expiry or signature', async () => {
    const url = await presigned('owner/file', 'PUT');
    expect(check(url, 'GET').ok).toBe(false);
    expect(check(url, 'PUT', 'evil.example:9000').ok).toBe(false);
    const longer = new URL(url);
    longer.searchParams.set('X-Amz-Expires', '604800');
    expect(check(longer, 'PUT').ok).toBe(false);
    const tampered = new URL(url);
    const sig = tampered.searchParams.get('X-Amz-Signature') as string;
    tampered.searchParams.set('X-Amz-Signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    expect(check(tampered, 'PUT').ok).toBe(false);
  });

  it('refuses unknown keys and unsigned requests', async () => {
    const url = await presigned('owner/file');
    url.searchParams.set(
      'X-Amz-Credential',
      url.searchParams.get('X-Amz-Credential')!.replace('AKID', 'OTHER'),
    );
    expect(check(url)).toEqual({ ok: false, reason: 'unknown access key' });
    expect(check(new URL('http://127.0.0.1:9000/bucket/owner/file'))).toEqual({
      ok: false,
      reason: 'not SigV4-signed',
    });
  });
});
