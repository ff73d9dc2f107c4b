import { ErrorCode, type CreateUploadBody, type RpcAuth } from '@vault/contracts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toStorageSettings, type FilesConfig } from '../config/files.config';
import type { FilesRepository } from '../repositories/files.repository';
import type { QueuesRepository } from '../repositories/queues.repository';
import { StorageRepository } from '../repositories/storage.repository';
import { FilesService } from './files.service';

/** A service over the storage of `env` alone: these calls never reach the database or the queues. */
function serviceWith(env: Record<string, string>): FilesService {
  const config = {
    storage: toStorageSettings({
      STORAGE_SIGNING_SECRET: 's'.repeat(32),
      STORAGE_LOCAL_ROOT: join(tmpdir(), 'vault-files-service-spec'),
      ...env,
    }),
  } as FilesConfig;
  return new FilesService(
    config,
    {} as FilesRepository,
    new StorageRepository(config),
    {} as QueuesRepository,
  );
}

const auth: RpcAuth = { userId: '7b3b1d38-4a6f-4d8e-9b0c-0f1e2d3c4b5a', sessionId: 's', role: 'user' };

describe(FilesService.name, () => {
  it('describes every storage kind: a local-disk-only server says what turns S3 and Cloudinary on', () => {
    expect(serviceWith({}).storageTypes()).toEqual({
      types: [{ type: 'local', label: 'Local disk' }],
      kinds: [
        { type: 'local', label: 'Local disk', configured: true, enableWith: ['STORAGE_LOCAL_ENABLED=true'] },
        {
          type: 's3',
          label: 'S3 / R2 / MinIO',
          configured: false,
          enableWith: ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'],
        },
        { type: 'cloudinary', label: 'Cloudinary', configured: false, enableWith: ['CLOUDINARY_URL'] },
      ],
      default: 'local',
    });
  });

  it('marks the configured kinds, with Cloudinary the default when it is configured', () => {
    const answer = serviceWith({
      CLOUDINARY_URL: 'cloudinary://key:secret@demo',
      STORAGE_LOCAL_ENABLED: 'false',
    }).storageTypes();
    expect(answer.types).toEqual([{ type: 'cloudinary', label: 'Cloudinary' }]);
    expect(answer.kinds.map((k) => [k.type, k.configured])).toEqual([
      ['local', false],
      ['s3', false],
      ['cloudinary', true],
    ]);
    expect(answer.default).toBe('cloudinary');
  });

  it('still refuses an upload to a kind that is listed but not configured', async () => {
    const service = serviceWith({});
    const body = { storageType: 's3', fileId: auth.userId } as unknown as CreateUploadBody;
    await expect(service.createUpload(auth, body)).rejects.toMatchObject({
      code: ErrorCode.STORAGE_NOT_CONFIGURED,
    });
    await expect(service.createUpload(auth, { ...body, storageType: 'cloudinary' })).rejects.toMatchObject({
      code: ErrorCode.STORAGE_NOT_CONFIGURED,
    });
  });
});
