export * from './s3rver-server';
export * from './sigv4-verifier';
export * from './cloudinary-test-server';
export * from './local-blob-server';
export * from './faults';
