/**
 * Every additional-data (AAD) string of protocol v1 in one place. Binding each ciphertext to its item id and
 * field is what stops a server from swapping, replaying across items or re-labelling ciphertext.
 */
import type { ItemId } from './types';

export const AAD = Object.freeze({
  vaultKey: 'vault:v1:vault-key',
  vaultKeyRecovery: 'vault:v1:vault-key:recovery',
  noteKey: (noteId: ItemId): string => `vault:v1:note-key:${noteId}`,
  noteField: (noteId: ItemId, field: 'title' | 'content' | 'tags'): string =>
    `vault:v1:note:${noteId}:${field}`,
  fileKey: (fileId: ItemId): string => `vault:v1:file-key:${fileId}`,
  fileField: (fileId: ItemId, field: 'name' | 'mime' | 'tags'): string => `vault:v1:file:${fileId}:${field}`,
  /**
   * Extension of v1 (docs/crypto-protocol.md "Key and metadata"): the sealed preview picture of an
   * image file.
   */
  fileThumbnail: (fileId: ItemId): string => `vault:v1:file:${fileId}:thumbnail`,
  fileChunk: (fileId: ItemId, index: number, last: boolean): string =>
    `vault:v1:file:${fileId}:chunk:${index}:${last ? 'last' : 'more'}`,
});
