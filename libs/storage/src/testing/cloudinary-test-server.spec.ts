import { createHash } from 'node:crypto';
import { v2 as cloudinary } from 'cloudinary';
import { cloudinaryStringToSign } from './cloudinary-test-server';

/** The test server must sign exactly like the SDK, or it would prove nothing. */
describe(cloudinaryStringToSign.name, () => {
  it.each([
    [{ timestamp: '1700000000', public_id: 'vault/a/b', type: 'authenticated', overwrite: '0' }],
    [{ timestamp: '1', public_id: 'x&y=z', context: 'a=b|c=d', tags: 'one,two' }],
    [{ timestamp: '1', public_id: 'p', empty: '', file: 'ignored', api_key: 'k', resource_type: 'raw' }],
  ])('gives the signature of the SDK for %j', (params) => {
    const ours = createHash('sha1')
      .update(cloudinaryStringToSign(params) + 'secret')
      .digest('hex');
    const sdkParams: Record<string, string> = { ...params };
    for (const unsigned of ['file', 'api_key', 'resource_type']) delete sdkParams[unsigned];
    expect(ours).toBe(cloudinary.utils.api_sign_request(sdkParams, 'secret'));
  });
});
