import { ErrorCode, VaultError } from '@vault/contracts';
import {
  buildBlobUrl,
  parseBlobUrl,
  signBlobRequest,
  verifyBlobSignature,
  verifyBlobSignatureAnyExpiry,
  type BlobSignatureParams,
} from './blob-signature';

const secret = 'a-test-signing-secret-of-32-bytes!';
const key = 'owner-a/file-1';
const now = 1_750_000_000_000;
const exp = now / 1000 + 300;

function signed(
  overrides: Partial<BlobSignatureParams> = {},
  op: 'put' | 'get' = 'put',
): BlobSignatureParams {
  const len = op === 'put' ? 1234 : undefined;
  const sig = signBlobRequest({ key, op, exp, ...(len === undefined ? {} : { len }) }, secret);
  return { key, op, exp: String(exp), ...(len === undefined ? {} : { len: String(len) }), sig, ...overrides };
}

function expectLinkInvalid(run: () => unknown): void {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(VaultError);
    expect((err as VaultError).code).toBe(ErrorCode.LINK_INVALID);
    expect((err as VaultError).status).toBe(403);
    return;
  }
  throw new Error('expected LINK_INVALID');
}

describe(verifyBlobSignature.name, () => {
  it('returns the signed key, operation and length of a valid upload URL', () => {
    expect(verifyBlobSignature(signed(), secret, now)).toEqual({ key, op: 'put', len: 1234, exp });
  });

  it('returns key and operation of a valid download URL (no length)', () => {
    expect(verifyBlobSignature(signed({}, 'get'), secret, now)).toEqual({ key, op: 'get', exp });
  });

  it('accepts a Buffer secret equal to the string one', () => {
    expect(verifyBlobSignature(signed(), Buffer.from(secret), now).key).toBe(key);
  });

  it('refuses an expired URL, and one at the exact second of expiry', () => {
    expectLinkInvalid(() => verifyBlobSignature(signed(), secret, exp * 1000));
    expectLinkInvalid(() => verifyBlobSignature(signed(), secret, exp * 1000 + 1));
    expect(verifyBlobSignature(signed(), secret, exp * 1000 - 1).key).toBe(key);
  });

  it('refuses the signature of one object used for another (another user, another file)', () => {
    expectLinkInvalid(() => verifyBlobSignature(signed({ key: 'owner-b/file-1' }), secret, now));
    expectLinkInvalid(() => verifyBlobSignature(signed({ key: 'owner-a/file-2' }), secret, now));
    expectLinkInvalid(() => verifyBlobSignature(signed({ key: 'owner-a/file-1.thumb' }), secret, now));
  });

  it('refuses another operation, another length, another expiry', () => {
    const put = signed();
    expectLinkInvalid(() => verifyBlobSignature({ ...put, op: 'get', len: undefined }, secret, now));
    expectLinkInvalid(() => verifyBlobSignature({ ...put, len: '1235' }, secret, now));
    expectLinkInvalid(() => verifyBlobSignature({ ...put, exp: String(exp + 3600) }, secret, now));
    const get = signed({}, 'get');
    expectLinkInvalid(() => verifyBlobSignature({ ...get, op: 'put', len: '0' }, secret, now));
    expectLinkInvalid(() => verifyBlobSignature({ ...get, len: '5' }, secret, now));
  });

  it('refuses a tampered, truncated or foreign signature', () => {
    const good = signed();
    const flipped = (good.sig[0] === '0' ? '1' : '0') + good.sig.slice(1);
    expectLinkInvalid(() => verifyBlobSignature({ ...good, sig: flipped }, secret, now));
    expectLinkInvalid(() => verifyBlobSignature({ ...good, sig: good.sig.slice(0, 62) }, secret, now));
    expectLinkInvalid(() => verifyBlobSignature({ ...good, sig: good.sig.toUpperCase() }, secret, now));
    expectLinkInvalid(() => verifyBlobSignature({ ...good, sig: '' }, secret, now));
    expectLinkInvalid(() => verifyBlobSignature(good, 'another-secret-that-is-32-bytes-long', now));
  });

  it('refuses malformed keys, operations and numbers without looking further', () => {
    expectLinkInvalid(() => verifyBlobSignature(signed({ key: '../x' }), secret, now));
    expectLinkInvalid(() => verifyBlobSignature(signed({ op: 'delete' }), secret, now));
    expectLinkInvalid(() => verifyBlobSignature(signed({ exp: '1e12' }), secret, now));
    expectLinkInvalid(() => verifyBlobSignature(signed({ exp: '-5' }), secret, now));
    expectLinkInvalid(() => verifyBlobSignature(signed({ len: '12.5' }), secret, now));
    expectLinkInvalid(() => verifyBlobSignature(signed({ len: undefined }), secret, now));
  });

  it('will not work with a short secret', () => {
    expect(() => verifyBlobSignature(signed(), 'short', now)).toThrow(/at least 32 bytes/);
  });
});

describe(verifyBlobSignatureAnyExpiry.name, () => {
  it('accepts a correctly signed URL after its expiry, with what was signed', () => {
    expect(verifyBlobSignatureAnyExpiry(signed(), secret)).toEqual({ key, op: 'put', len: 1234, exp });
    expectLinkInvalid(() => verifyBlobSignature(signed(), secret, exp * 1000 + 60_000));
  });

  it('still refuses every other fault: another key, length, expiry, operation or signature', () => {
    const put = signed();
    expectLinkInvalid(() => verifyBlobSignatureAnyExpiry({ ...put, key: 'owner-b/file-1' }, secret));
    expectLinkInvalid(() => verifyBlobSignatureAnyExpiry({ ...put, len: '1235' }, secret));
    expectLinkInvalid(() => verifyBlobSignatureAnyExpiry({ ...put, exp: String(exp + 3600) }, secret));
    expectLinkInvalid(() => verifyBlobSignatureAnyExpiry({ ...put, op: 'get', len: undefined }, secret));
    const flipped = (put.sig[0] === '0' ? '1' : '0') + put.sig.slice(1);
    expectLinkInvalid(() => verifyBlobSignatureAnyExpiry({ ...put, sig: flipped }, secret));
  });
});

describe(parseBlobUrl.name, () => {
  it('reads back what buildBlobUrl made, which then verifies', () => {
    const url = buildBlobUrl({ key, op: 'put', exp, len: 99 }, secret);
    expect(url).toMatch(/^\/api\/files\/blob\/owner-a\/file-1\?op=put&exp=\d+&len=99&sig=[0-9a-f]{64}$/);
    const params = parseBlobUrl(url);
    expect(params).toMatchObject({ key, op: 'put', exp: String(exp), len: '99' });
    expect(verifyBlobSignature(params, secret, now)).toEqual({ key, op: 'put', len: 99, exp });
  });

  it('reads absolute URLs and other bases', () => {
    const url = buildBlobUrl({ key, op: 'get', exp }, secret, '/blob');
    expect(parseBlobUrl(`https://vault.example${url}`, '/blob').key).toBe(key);
  });

  it('refuses repeated parameters, missing ones and paths outside the base', () => {
    const url = buildBlobUrl({ key, op: 'get', exp }, secret);
    expectLinkInvalid(() => parseBlobUrl(`${url}&op=put`));
    expectLinkInvalid(() => parseBlobUrl(url.replace(/&sig=[0-9a-f]+/, '')));
    expectLinkInvalid(() => parseBlobUrl(url.replace('/api/files/blob/', '/api/files/other/')));
  });

  it('a path that climbs out gives a key that fails verification', () => {
    const url = buildBlobUrl({ key, op: 'get', exp }, secret);
    const climbing = url.replace('owner-a/file-1', 'owner-a/%2e%2e/owner-b/file-1');
    expectLinkInvalid(() => verifyBlobSignature(parseBlobUrl(climbing), secret, now));
  });
});
