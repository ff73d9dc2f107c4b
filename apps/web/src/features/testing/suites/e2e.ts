import type { TestingContext } from '../model/context';
import type { SuiteDefinition } from '../model/suite';
import { fileRoundTrip } from './e2e-file';
import { noteRoundTrip } from './e2e-note';

export const e2eSuite: SuiteDefinition<TestingContext> = {
  id: 'e2e',
  name: 'End to end',
  description: 'A temporary note and file through the real API and storage, then deleted for good.',
  category: 'e2e',
  covers: [
    'A note sealed in the notes Worker: created, listed, decrypted, permanently deleted, gone (404), counts back',
    'A file sealed in the files Worker: uploaded to the real storage, completed, decrypted, permanently deleted, gone, counts back',
    'Zero-knowledge canary: the stored copies hold none of a random plaintext marker',
    'Clean-up runs even when a step fails or Stop is pressed',
  ],
  checks: [
    {
      id: 'e2e-note',
      name: 'Note round trip',
      why: 'Notes must come back exactly as written, be unreadable to the server, and be gone when deleted for good.',
      fix: 'Check that the notes service is up (API suite, health) and look at its logs; a canary failure is a serious bug: report it.',
      docs: 'e2e-note',
      quick: true,
      run: noteRoundTrip,
    },
    {
      id: 'e2e-file',
      name: 'File round trip',
      why: 'Files must reach the storage sealed, come back exactly, and leave nothing behind when deleted.',
      fix: 'Check the files service and its storage (API suite, health; docs/operations.md "Configuration", storage settings).',
      docs: 'e2e-file',
      quick: false,
      run: fileRoundTrip,
    },
  ],
};
