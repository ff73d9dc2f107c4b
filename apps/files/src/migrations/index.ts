import { CreateFilesSchema1795500000000 } from './1795500000000-create-files-schema';
import { ScanErrorIndex1795800000000 } from './1795800000000-scan-error-index';
import { UploadProgress1795900000000 } from './1795900000000-upload-progress';
import { ScanPendingIndex1796000000000 } from './1796000000000-scan-pending-index';

/** Every migration of the files schema, oldest first (classes, so ts-jest and dist both work). */
export const FILES_MIGRATIONS = [
  CreateFilesSchema1795500000000,
  ScanErrorIndex1795800000000,
  UploadProgress1795900000000,
  ScanPendingIndex1796000000000,
];
