export * from './storage-driver';
export * from './object-key';
export {
  ByteLimit,
  ByteWindow,
  MAX_URL_TTL_SECONDS,
  isObjectTooLarge,
  objectNotFound,
  objectTooLarge,
} from './streams';
export * from './local/blob-signature';
export * from './local/local-storage.driver';
export * from './s3/s3-storage.driver';
export * from './cloudinary/cloudinary-storage.driver';
export { loadCloudinarySdk } from './cloudinary/cloudinary-sdk';
export * from './storage-factory';
export * from './config/storage-env';
