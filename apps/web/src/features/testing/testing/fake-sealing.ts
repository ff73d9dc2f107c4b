import type { FilesCrypto } from '../../../workers/files-crypto';
import type { FilesDownloadCrypto } from '../../../workers/files-download-crypto';
import type { NotesCrypto } from '../../../workers/notes-crypto';

/**
 * The fake Workers of the suites' tests. Their "sealing" is hex: it hides the plaintext from a
 * substring search, as the zero-knowledge canary needs, and nothing more.
 */
export const hex = (text: string) =>
  Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, '0')).join('');
export const unhex = (h: string) =>
  new TextDecoder().decode(new Uint8Array((h.match(/../g) ?? []).map((b) => parseInt(b, 16))));
export const fakeNotesCrypto: NotesCrypto = {
  encrypt: async (_key, id, plain) => ({
    id: id ?? crypto.randomUUID(),
    title: hex(plain.title),
    content: hex(plain.content),
    tags: [hex(JSON.stringify(plain.tags))],
    wrappedDEK: 'wk',
  }),
  decryptBatch: async (_key, notes) =>
    notes.map((n) => ({
      id: n.id,
      ok: true as const,
      note: {
        title: unhex(n.title),
        content: unhex(n.content),
        tags: JSON.parse(unhex(n.tags[0] ?? hex('[]'))) as string[],
      },
    })),
  update: () => Promise.reject(new Error('unused')),
  sealBackup: () => Promise.reject(new Error('unused')),
  openBackup: () => Promise.reject(new Error('unused')),
};

export const fakeFilesCrypto = {
  sealUploadMeta: async (_key, input) => ({
    fileId: crypto.randomUUID(),
    size: input.file.size,
    encryptedSize: input.file.size * 2,
    chunkSize: 65536,
    iv: '00'.repeat(12),
    wrappedKey: 'wk',
    encryptedName: hex(input.name),
    encryptedMimeType: hex(input.mimeType),
    encryptedTags: hex(JSON.stringify(input.tags)),
  }),
  stageUpload: async (_key, fields, input) => ({
    fields,
    ciphertext: new Blob([hex(await input.file.text())]),
    staging: { kind: 'memory' },
  }),
  releaseUpload: async () => undefined,
  decryptMetadata: async (_key, files) =>
    files.map((f) => ({
      id: f.id,
      ok: true as const,
      meta: {
        name: unhex(f.encryptedName),
        mimeType: unhex(f.encryptedMimeType),
        tags: JSON.parse(unhex(f.encryptedTags)) as string[],
      },
    })),
} as Partial<FilesCrypto> as FilesCrypto;

export const fakeFilesDownloadCrypto: FilesDownloadCrypto = {
  async decrypt(_key, _file, encrypted) {
    const text = unhex(await new Response(encrypted).text());
    return { plaintext: new Blob([text]).stream(), verified: Promise.resolve() };
  },
};
