import { UPLOAD_PART_MAX_BYTES, UPLOAD_PART_MIN_BYTES } from '@vault/contracts';
import { CLOUDINARY_MIN_CHUNK_BYTES } from './cloudinary/cloudinary-storage.driver';
import { S3_MIN_PART_SIZE } from './s3/s3-storage.driver';

describe('the contract’s part sizes', () => {
  // The web app cuts its first part to UPLOAD_PART_MIN_BYTES without knowing the storage behind
  // uploadUrl: every driver must take a part of that size that is not the last.
  it('UPLOAD_PART_MIN_BYTES is a part every storage takes, and no larger than the largest', () => {
    expect(UPLOAD_PART_MIN_BYTES).toBeGreaterThanOrEqual(CLOUDINARY_MIN_CHUNK_BYTES);
    expect(UPLOAD_PART_MIN_BYTES).toBeGreaterThanOrEqual(S3_MIN_PART_SIZE);
    expect(UPLOAD_PART_MIN_BYTES).toBeLessThanOrEqual(UPLOAD_PART_MAX_BYTES);
  });
});
